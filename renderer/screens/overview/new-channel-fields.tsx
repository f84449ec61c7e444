// The monitor form's "Add a channel": its kind, then the fields that kind needs. What is a
// credential (a Teams or Discord URL, a PagerDuty routing key, an SMTP password) is typed here once
// and goes to the keychain; the monitors file only names it.
import type { UseFormReturn } from 'react-hook-form';
import { CHANNEL_WORDS, type ChannelKind } from '../../../shared/monitor';
import { FieldError } from '../../components/field-error';
import type { MonitorFormValues, MonitorInput } from './monitor-form-values';

const URL_PLACEHOLDER: Record<'webhook' | 'teams' | 'discord', string> = {
  webhook: 'https://hooks.slack.com/services/…',
  teams: 'https://….webhook.office.com/… or a Workflows URL',
  discord: 'https://discord.com/api/webhooks/…',
};

export function NewChannelFields({
  form,
}: {
  form: UseFormReturn<MonitorFormValues, unknown, MonitorInput>;
}) {
  const { register, watch, formState } = form;
  const errors = formState.errors.webhooks?.[0];
  const kind: ChannelKind = watch('webhooks.0.kind') ?? 'webhook';
  return (
    <div className="monitor-form-grid">
      <label>
        Add a channel
        <select aria-label="Channel" {...register('webhooks.0.kind')}>
          {(Object.keys(CHANNEL_WORDS) as ChannelKind[]).map((k) => (
            <option key={k} value={k}>
              {CHANNEL_WORDS[k]}
            </option>
          ))}
        </select>
      </label>
      {kind === 'webhook' || kind === 'teams' || kind === 'discord' ? (
        <>
          <label className="monitor-form-wide">
            {kind === 'webhook' ? 'Add a webhook URL' : `${CHANNEL_WORDS[kind]} webhook URL`} (kept in the
            keychain)
            <input type="url" placeholder={URL_PLACEHOLDER[kind]} {...register('webhooks.0.url')} />
            <FieldError error={errors?.url} />
          </label>
          {kind === 'webhook' ? (
            <label>
              Payload
              <select aria-label="Payload" {...register('webhooks.0.format')}>
                <option value="json">JSON</option>
                <option value="slack">Slack-compatible</option>
              </select>
            </label>
          ) : null}
        </>
      ) : null}
      {kind === 'pagerduty' ? (
        <label className="monitor-form-wide">
          Routing key (Events API v2 integration key, kept in the keychain)
          <input type="password" autoComplete="off" {...register('webhooks.0.routingKey')} />
          <FieldError error={errors?.routingKey} />
        </label>
      ) : null}
      {kind === 'email' ? (
        <>
          <label>
            SMTP server
            <input placeholder="smtp.example.com" {...register('webhooks.0.host')} />
            <FieldError error={errors?.host} />
          </label>
          <label>
            Port
            <input type="number" min={1} max={65_535} {...register('webhooks.0.port')} />
            <FieldError error={errors?.port} />
          </label>
          <label>
            Security
            <select aria-label="Security" {...register('webhooks.0.tls')}>
              <option value="starttls">STARTTLS (587)</option>
              <option value="tls">TLS (465)</option>
            </select>
          </label>
          <label>
            User
            <input autoComplete="off" {...register('webhooks.0.user')} />
            <FieldError error={errors?.user} />
          </label>
          <label>
            Password (kept in the keychain)
            <input type="password" autoComplete="off" {...register('webhooks.0.password')} />
            <FieldError error={errors?.password} />
          </label>
          <label>
            From
            <input inputMode="email" placeholder="monitor@example.com" {...register('webhooks.0.from')} />
            <FieldError error={errors?.from} />
          </label>
          <label className="monitor-form-wide">
            To (addresses, comma-separated)
            <input placeholder="oncall@example.com, ops@example.com" {...register('webhooks.0.to')} />
            <FieldError error={errors?.to} />
          </label>
        </>
      ) : null}
    </div>
  );
}
