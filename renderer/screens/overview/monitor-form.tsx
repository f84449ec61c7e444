// Adding or editing a monitor: which profile, how often its health is polled, an optional
// synthetic check (one message with assertions, or cases of a suite file), and whom to tell —
// desktop notifications (or muted) and webhooks. A webhook URL goes to the keychain; the form
// shows only its host afterwards.
import { useState, type FormEvent } from 'react';
import type { MonitorView } from '../../../shared/monitor';
import { ErrorMessage } from '../../components/error-message';
import { useAddMonitor, useRemoveMonitor, useUpdateMonitor } from '../../data/monitors';
import { useProfiles } from '../../data/profiles';

interface FormProps {
  /** A saved monitor to edit, the active profile's own poll to save, or nothing for a new one. */
  editing: MonitorView | undefined;
  onDone(): void;
}

const DEFAULT_ASSERT = '- completes: true\n- ttft-ms: 2000\n';

export function MonitorForm({ editing, onDone }: FormProps) {
  const profiles = useProfiles().data ?? [];
  const addMonitor = useAddMonitor();
  const updateMonitor = useUpdateMonitor();
  const removeMonitor = useRemoveMonitor();
  const saved = editing && !editing.implicit ? editing : undefined;
  const settings = editing?.settings;
  const synth = settings?.synthetic;
  const [name, setName] = useState(settings?.name ?? '');
  const [profileId, setProfileId] = useState(settings?.profileId ?? profiles.find((p) => p.active)?.id ?? '');
  const [healthEveryS, setHealthEveryS] = useState(String((settings?.healthEveryMs ?? 60_000) / 1000));
  const [withSynthetic, setWithSynthetic] = useState(synth !== undefined);
  const [everyMinutes, setEveryMinutes] = useState(String((synth?.everyMs ?? 300_000) / 60_000));
  const [agents, setAgents] = useState((synth?.agents ?? []).join(', '));
  const [source, setSource] = useState<'message' | 'suite'>(synth?.suite ? 'suite' : 'message');
  const [message, setMessage] = useState(synth?.message ?? 'Are you there?');
  const [stream, setStream] = useState(synth?.stream ?? true);
  const [assertYaml, setAssertYaml] = useState(DEFAULT_ASSERT);
  const [suite, setSuite] = useState(synth?.suite ?? '');
  const [cases, setCases] = useState((synth?.cases ?? []).join(', '));
  const [desktop, setDesktop] = useState(settings?.desktop ?? true);
  const [muted, setMuted] = useState(settings?.muted ?? false);
  const [kept, setKept] = useState(settings?.webhooks ?? []);
  const [hookUrl, setHookUrl] = useState('');
  const [hookFormat, setHookFormat] = useState<'json' | 'slack'>('json');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();

  const list = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    const input = {
      name: name.trim(),
      profileId,
      healthEveryS: Number(healthEveryS),
      ...(withSynthetic
        ? {
            synthetic: {
              everyMinutes: Number(everyMinutes),
              agents: list(agents),
              ...(source === 'suite'
                ? { suite: suite.trim(), ...(list(cases).length ? { cases: list(cases) } : {}) }
                : { message, stream, assertYaml }),
            },
          }
        : {}),
      desktop,
      muted,
      ...(hookUrl.trim() ? { webhooks: [{ url: hookUrl.trim(), format: hookFormat }] } : {}),
    };
    try {
      if (saved)
        await updateMonitor.mutateAsync({ ...input, id: saved.id, keepWebhooks: kept.map((h) => h.id) });
      else await addMonitor.mutateAsync(input);
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    if (!saved) return;
    setPending(true);
    try {
      await removeMonitor.mutateAsync(saved.id);
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      className="card monitor-form"
      aria-label={saved ? `Edit ${saved.name}` : 'New monitor'}
      onSubmit={(e) => void submit(e)}
    >
      <h3>{saved ? `Edit ${saved.name}` : 'New monitor'}</h3>
      <div className="monitor-form-grid">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          Profile
          <select aria-label="Profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.baseUrl})
              </option>
            ))}
          </select>
        </label>
        <label>
          Health every (seconds)
          <input
            type="number"
            min={10}
            max={86_400}
            value={healthEveryS}
            onChange={(e) => setHealthEveryS(e.target.value)}
          />
        </label>
      </div>
      <fieldset>
        <legend>
          <label className="pg-check">
            <input
              type="checkbox"
              checked={withSynthetic}
              onChange={(e) => setWithSynthetic(e.target.checked)}
            />
            Synthetic check: does an agent really answer?
          </label>
        </legend>
        {withSynthetic ? (
          <div className="monitor-form-grid">
            <label>
              Every (minutes)
              <input
                type="number"
                min={1}
                max={1440}
                value={everyMinutes}
                onChange={(e) => setEveryMinutes(e.target.value)}
              />
            </label>
            <label>
              Agents (slugs, comma-separated)
              <input
                value={agents}
                placeholder="helpdesk, echo"
                onChange={(e) => setAgents(e.target.value)}
              />
            </label>
            <label>
              Check
              <select
                aria-label="Check"
                value={source}
                onChange={(e) => setSource(e.target.value as 'message' | 'suite')}
              >
                <option value="message">One message with assertions</option>
                <option value="suite">Cases of a suite file</option>
              </select>
            </label>
            {source === 'message' ? (
              <>
                <label className="monitor-form-wide">
                  Message
                  <input value={message} onChange={(e) => setMessage(e.target.value)} />
                </label>
                <label className="pg-check">
                  <input type="checkbox" checked={stream} onChange={(e) => setStream(e.target.checked)} />{' '}
                  Streamed
                </label>
                <label className="monitor-form-wide">
                  Assertions (YAML, as in a suite file)
                  <textarea
                    rows={4}
                    value={assertYaml}
                    onChange={(e) => setAssertYaml(e.target.value)}
                    spellCheck={false}
                  />
                </label>
              </>
            ) : (
              <>
                <label className="monitor-form-wide">
                  Suite file (full path)
                  <input value={suite} onChange={(e) => setSuite(e.target.value)} />
                </label>
                <label className="monitor-form-wide">
                  Cases (names, comma-separated; empty: all)
                  <input value={cases} onChange={(e) => setCases(e.target.value)} />
                </label>
              </>
            )}
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Notifications</legend>
        <label className="pg-check">
          <input type="checkbox" checked={desktop} onChange={(e) => setDesktop(e.target.checked)} /> Desktop
        </label>
        <label className="pg-check">
          <input type="checkbox" checked={muted} onChange={(e) => setMuted(e.target.checked)} /> Muted (tell
          nobody)
        </label>
        {kept.length > 0 ? (
          <ul className="monitor-hooks" aria-label="Webhooks">
            {kept.map((h) => (
              <li key={h.id}>
                {h.format === 'slack' ? 'Slack' : 'JSON'} → <code>{h.target}</code>{' '}
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setKept(kept.filter((k) => k.id !== h.id))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="monitor-form-grid">
          <label className="monitor-form-wide">
            Add a webhook URL (kept in the keychain)
            <input
              type="url"
              value={hookUrl}
              placeholder="https://hooks.slack.com/services/…"
              onChange={(e) => setHookUrl(e.target.value)}
            />
          </label>
          <label>
            Payload
            <select
              aria-label="Payload"
              value={hookFormat}
              onChange={(e) => setHookFormat(e.target.value as 'json' | 'slack')}
            >
              <option value="json">JSON</option>
              <option value="slack">Slack-compatible</option>
            </select>
          </label>
        </div>
      </fieldset>
      {error ? <ErrorMessage error={error} title="The monitor was not saved." /> : null}
      <div className="actions">
        <button type="submit" disabled={pending || !name.trim() || !profileId}>
          {saved ? 'Save' : 'Add monitor'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
        {saved ? (
          <button type="button" className="secondary" disabled={pending} onClick={() => void remove()}>
            Remove monitor
          </button>
        ) : null}
      </div>
    </form>
  );
}
