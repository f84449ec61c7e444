// One incident as people work on it: what broke and since when, who acknowledged it, the updates
// written so far, and — while it is open — Acknowledge, Add update and Resolve. The Overview shows
// a monitor's open incident under its row; the Health screen lists the monitor's incidents.
import { useState, type FormEvent } from 'react';
import { isOpen, type Incident } from '../../../shared/incident';
import { WATCH_WORDS } from '../../../shared/monitor';
import { ErrorMessage } from '../../components/error-message';
import { RelativeTime } from '../../components/relative-time';
import {
  useAcknowledgeIncident,
  useAddIncidentUpdate,
  useResolveIncident,
} from '../../data/monitors-actions';
import './incident-panel.css';

const TIME = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const at = (ms: number) => <time dateTime={new Date(ms).toISOString()}>{TIME.format(ms)}</time>;

export function IncidentPanel({ incident }: { incident: Incident }) {
  const acknowledge = useAcknowledgeIncident();
  const addUpdate = useAddIncidentUpdate();
  const resolve = useResolveIncident();
  const [writing, setWriting] = useState(false);
  const [text, setText] = useState('');
  const open = isOpen(incident);
  const error = acknowledge.error ?? addUpdate.error ?? resolve.error;
  const busy = acknowledge.isPending || addUpdate.isPending || resolve.isPending;

  function post(event: FormEvent) {
    event.preventDefault();
    addUpdate.mutate(
      { id: incident.id, text },
      {
        onSuccess: () => {
          setText('');
          setWriting(false);
        },
      },
    );
  }

  return (
    <section
      className={`incident${open ? ' incident-open' : ''}`}
      aria-label={`Incident on ${incident.monitorName}`}
      data-incident={incident.id}
      data-acknowledged={incident.acknowledged ? 'yes' : 'no'}
    >
      <div className="incident-head">
        <strong>
          {open ? 'Incident' : 'Resolved'}: {WATCH_WORDS[incident.status]}
        </strong>
        <span className="muted">
          since {at(incident.startedAt)}
          {open ? (
            <>
              {' '}
              (<RelativeTime iso={new Date(incident.startedAt).toISOString()} />)
            </>
          ) : null}
          {incident.resolved ? (
            <>
              {' '}
              · resolved {at(incident.resolved.at)}
              {incident.resolved.by === 'monitor' ? ' on recovery' : ` by ${incident.resolved.by}`}
            </>
          ) : null}
        </span>
        {incident.acknowledged ? (
          <span className="incident-ack">
            Acknowledged by {incident.acknowledged.by} at {at(incident.acknowledged.at)}
          </span>
        ) : open ? (
          <span className="incident-unack">
            Not acknowledged
            {incident.escalations > 0 ? ` · told again ${incident.escalations}×` : ''}
          </span>
        ) : null}
      </div>
      <p className="incident-failure">{incident.firstFailure}</p>
      {incident.checks.length > 0 ? <p className="muted">Failing: {incident.checks.join(', ')}</p> : null}
      {incident.updates.length > 0 ? (
        <ol className="incident-updates" aria-label="Updates">
          {incident.updates.map((u, i) => (
            <li key={i}>
              {at(u.at)} <strong>{u.by === 'monitor' ? 'Monitor' : u.by}</strong>: {u.text}
            </li>
          ))}
        </ol>
      ) : null}
      {open ? (
        <div className="incident-actions">
          {!incident.acknowledged ? (
            <button type="button" disabled={busy} onClick={() => acknowledge.mutate(incident.id)}>
              Acknowledge
            </button>
          ) : null}
          <button
            type="button"
            className="secondary"
            disabled={busy || writing}
            onClick={() => setWriting(true)}
          >
            Add update…
          </button>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => resolve.mutate(incident.id)}
          >
            Resolve
          </button>
        </div>
      ) : null}
      {writing ? (
        <form className="incident-update-form" aria-label="Incident update" onSubmit={post}>
          <label>
            <span>Update (what is known, what is being done)</span>
            <textarea rows={2} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <div className="incident-actions">
            <button type="submit" disabled={busy || !text.trim()}>
              Post update
            </button>
            <button type="button" className="secondary" onClick={() => setWriting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? <ErrorMessage error={error} title="That did not work." /> : null}
    </section>
  );
}
