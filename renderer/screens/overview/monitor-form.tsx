// Adding or editing a monitor: which profile, how often its health is polled, an optional
// synthetic check (one message with assertions, or cases of a suite file), and whom to tell —
// desktop notifications (or muted) and channels (webhooks, Teams, Discord, PagerDuty, email). A
// channel's secret goes to the keychain; the form shows only its host afterwards.
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { CHANNEL_WORDS, type MonitorView } from '../../../shared/monitor';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { NewChannelFields } from './new-channel-fields';
import { FieldError } from '../../components/field-error';
import { formResolver } from '../../data/contract';
import { useAddMonitor, useRemoveMonitor, useUpdateMonitor } from '../../data/monitors-actions';
import { useProfiles } from '../../data/profiles';
import {
  addInput,
  monitorForm,
  monitorFormStart,
  type MonitorFormValues,
  type MonitorInput,
} from './monitor-form-values';

interface FormProps {
  /** A saved monitor to edit, the active profile's own poll to save, or nothing for a new one. */
  editing: MonitorView | undefined;
  onDone(): void;
}

export function MonitorForm({ editing, onDone }: FormProps) {
  const profiles = useProfiles().data ?? [];
  const addMonitor = useAddMonitor();
  const updateMonitor = useUpdateMonitor();
  const removeMonitor = useRemoveMonitor();
  const saved = editing && !editing.implicit ? editing : undefined;
  const form = useForm<MonitorFormValues, unknown, MonitorInput>({
    resolver: formResolver(monitorForm),
    defaultValues: monitorFormStart(editing, profiles.find((p) => p.active)?.id),
  });
  const { register, watch, formState } = form;
  const { errors } = formState;
  const kept = useFieldArray({ control: form.control, name: 'kept', keyName: 'key' });
  const [error, setError] = useState<unknown>();
  const [confirmDialog, confirm] = useConfirm();
  const pending = formState.isSubmitting || removeMonitor.isPending;

  async function submit(input: MonitorInput) {
    setError(undefined);
    try {
      if (saved) await updateMonitor.mutateAsync({ ...input, id: saved.id });
      else await addMonitor.mutateAsync(addInput(input));
      onDone();
    } catch (e) {
      setError(e);
    }
  }

  function askToRemove() {
    if (!saved) return;
    const hooks = saved.settings.webhooks.length;
    confirm(
      {
        title: `Remove the monitor “${saved.name}”?`,
        body: `This deletes 1 monitor of ${saved.profileName}: its checks stop${saved.synthetic ? ', its synthetic check with them,' : ''} and its settings${hooks > 0 ? ` and ${hooks} channel${hooks === 1 ? '' : 's'}` : ''} are gone.`,
        confirmLabel: 'Remove the monitor',
        destructive: true,
      },
      () => remove(),
    );
  }

  async function remove() {
    if (!saved) return;
    try {
      await removeMonitor.mutateAsync(saved.id);
      onDone();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <form
      className="card monitor-form"
      aria-label={saved ? `Edit ${saved.name}` : 'New monitor'}
      onSubmit={form.handleSubmit(submit)}
    >
      <h2>{saved ? `Edit ${saved.name}` : 'New monitor'}</h2>
      {confirmDialog}
      <div className="monitor-form-grid">
        <label>
          Name
          <input {...register('name')} required maxLength={100} />
          <FieldError error={errors.name} />
        </label>
        <label>
          Profile
          <select aria-label="Profile" {...register('profileId')}>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.baseUrl})
              </option>
            ))}
          </select>
        </label>
        <label>
          Health every (seconds)
          <input type="number" min={10} max={86_400} {...register('healthEveryS')} />
          <FieldError error={errors.healthEveryS} />
        </label>
      </div>
      <fieldset>
        <legend>
          <label className="pg-check">
            <input type="checkbox" {...register('withSynthetic')} />
            Synthetic check: does an agent really answer?
          </label>
        </legend>
        {watch('withSynthetic') ? (
          <div className="monitor-form-grid">
            <label>
              Every (minutes)
              <input type="number" min={1} max={1440} {...register('synthetic.everyMinutes')} />
              <FieldError error={errors.synthetic?.everyMinutes} />
            </label>
            <label>
              Agents (slugs, comma-separated)
              <input placeholder="helpdesk, echo" {...register('synthetic.agents')} />
              <FieldError error={errors.synthetic?.agents} />
            </label>
            <label>
              Check
              <select aria-label="Check" {...register('synthetic.source')}>
                <option value="message">One message with assertions</option>
                <option value="suite">Cases of a suite file</option>
              </select>
            </label>
            {watch('synthetic.source') === 'message' ? (
              <>
                <label className="monitor-form-wide">
                  Message
                  <input {...register('synthetic.message')} />
                  <FieldError error={errors.synthetic?.message} />
                </label>
                <label className="pg-check">
                  <input type="checkbox" {...register('synthetic.stream')} /> Streamed
                </label>
                <label className="monitor-form-wide">
                  Assertions (YAML, as in a suite file)
                  <textarea rows={4} {...register('synthetic.assertYaml')} spellCheck={false} />
                  <FieldError error={errors.synthetic?.assertYaml} />
                </label>
              </>
            ) : (
              <>
                <label className="monitor-form-wide">
                  Suite file (full path)
                  <input {...register('synthetic.suite')} />
                  <FieldError error={errors.synthetic?.suite} />
                </label>
                <label className="monitor-form-wide">
                  Cases (names, comma-separated; empty: all)
                  <input {...register('synthetic.cases')} />
                  <FieldError error={errors.synthetic?.cases} />
                </label>
              </>
            )}
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Notifications</legend>
        <label className="pg-check">
          <input type="checkbox" {...register('desktop')} /> Desktop
        </label>
        <label className="pg-check">
          <input type="checkbox" {...register('muted')} /> Muted (tell nobody)
        </label>
        {kept.fields.length > 0 ? (
          <ul className="monitor-hooks" aria-label="Webhooks">
            {kept.fields.map((h, index) => (
              <li key={h.key}>
                {CHANNEL_WORDS[h.kind]}
                {h.kind === 'webhook' ? (h.format === 'slack' ? ' (Slack)' : ' (JSON)') : ''} →{' '}
                <code>{h.target}</code>{' '}
                <button type="button" className="secondary" onClick={() => kept.remove(index)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <NewChannelFields form={form} />
      </fieldset>
      <fieldset>
        <legend>Status page</legend>
        <label className="pg-check">
          <input type="checkbox" {...register('public')} /> On the status page (status, last 90 days and
          incidents in words; never the address, secrets or errors)
        </label>
      </fieldset>
      <fieldset>
        <legend>Maintenance windows</legend>
        <label className="monitor-form-stack">
          Windows (YAML, as in the monitors file; times in UTC unless tz: gives a zone)
          <textarea
            rows={3}
            placeholder={
              '- every: sun 02:00\n  for: 1h\n- from: 2026-12-01T22:00:00Z\n  to: 2026-12-02T01:00:00Z'
            }
            {...register('maintenanceYaml')}
            spellCheck={false}
          />
          <FieldError error={errors.maintenanceYaml} />
        </label>
      </fieldset>
      {error ? <ErrorMessage error={error} title="The monitor was not saved." /> : null}
      <div className="actions">
        <button type="submit" disabled={pending || !watch('name').trim() || !watch('profileId')}>
          {saved ? 'Save' : 'Add monitor'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
        {saved ? (
          <button type="button" className="secondary" disabled={pending} onClick={askToRemove}>
            Remove monitor
          </button>
        ) : null}
      </div>
    </form>
  );
}
