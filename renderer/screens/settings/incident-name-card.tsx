// Settings › Incidents: the name people see on an incident someone here acknowledged, updated or
// resolved. Left blank, it is this computer's user name, shown as the placeholder.
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorMessage } from '../../components/error-message';
import { FieldError } from '../../components/field-error';
import { contractInput, formResolver } from '../../data/contract';
import { useIncidentName, useSaveIncidentName } from '../../data/incident-name';

export function IncidentNameCard() {
  const current = useIncidentName();
  const save = useSaveIncidentName();
  const form = useForm<{ name: string }>({
    resolver: formResolver(contractInput('monitors:setIncidentName')),
    defaultValues: { name: '' },
  });
  const saved = current.data;
  useEffect(() => {
    if (saved) form.reset({ name: saved.name ?? '' });
  }, [saved, form.reset]);
  const { errors, isDirty } = form.formState;
  return (
    <section className="card form" aria-labelledby="settings-incidents">
      <h2 id="settings-incidents">Incidents</h2>
      <form onSubmit={form.handleSubmit(({ name }) => save.mutate(name))}>
        <label>
          Your name on incidents
          <input {...form.register('name')} placeholder={saved?.osUser} maxLength={100} autoComplete="name" />
          <FieldError error={errors.name} />
        </label>
        <p className="field-hint">
          Who acknowledged an incident, posted an update or resolved it. Left blank: this computer’s user name
          {saved ? ` (${saved.osUser})` : ''}.
        </p>
        <div className="actions">
          <button type="submit" disabled={!isDirty || save.isPending}>
            Save
          </button>
        </div>
        {save.isSuccess && !isDirty && saved ? (
          <p role="status">Saved: incidents are acknowledged as {saved.name ?? saved.osUser}.</p>
        ) : null}
        {current.isError ? <ErrorMessage error={current.error} /> : null}
        {save.isError ? <ErrorMessage error={save.error} title="The name was not saved." /> : null}
      </form>
    </section>
  );
}
