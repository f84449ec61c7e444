// A saved monitor's incidents on the Health screen, newest first, each with what people did about
// it (and, while open, Acknowledge / Add update / Resolve), exported as JSON or CSV for a review.
import type { Incident } from '../../../shared/incident';
import { WATCH_WORDS } from '../../../shared/monitor';
import { csvText } from '../../components/csv';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/error-message';
import { useIncidents } from '../../data/monitors';
import { IncidentPanel } from '../overview/incident-panel';

const iso = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString());

/** One line per incident; its updates joined in one cell (by, time, text). */
function incidentsCsv(incidents: readonly Incident[]): string {
  return csvText(
    [
      'id',
      'monitor',
      'status',
      'started',
      'acknowledged_by',
      'acknowledged_at',
      'resolved_at',
      'resolved_by',
      'minutes',
      'failing_checks',
      'first_failure',
      'updates',
    ],
    incidents.map((i) => [
      i.id,
      i.monitorName,
      WATCH_WORDS[i.status],
      iso(i.startedAt),
      i.acknowledged?.by,
      iso(i.acknowledged?.at),
      iso(i.resolved?.at),
      i.resolved?.by,
      i.resolved ? Math.round((i.resolved.at - i.startedAt) / 60_000) : undefined,
      i.checks.join('; '),
      i.firstFailure,
      i.updates.map((u) => `${iso(u.at)} ${u.by}: ${u.text}`).join('\n'),
    ]),
  );
}

export function IncidentsCard({ monitorId, monitorName }: { monitorId: string; monitorName: string }) {
  const incidents = useIncidents(monitorId);
  const list = incidents.data ?? [];
  const stem = `incidents-${monitorName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="card health-incidents" aria-labelledby="health-incidents-title">
      <div className="health-incidents-head">
        <h2 id="health-incidents-title">Incidents</h2>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={list.length === 0}
            onClick={() =>
              downloadText(`${stem}.json`, `${JSON.stringify(list, null, 2)}\n`, 'application/json')
            }
          >
            Export JSON
          </button>
          <button
            type="button"
            className="secondary"
            disabled={list.length === 0}
            onClick={() => downloadText(`${stem}.csv`, incidentsCsv(list), 'text/csv')}
          >
            Export CSV
          </button>
        </div>
      </div>
      {incidents.isError ? (
        <ErrorMessage error={incidents.error} title="The incidents could not be read." />
      ) : null}
      {incidents.isSuccess && list.length === 0 ? (
        <p className="muted">No incidents: a confirmed change to a bad status opens one.</p>
      ) : null}
      {list.map((incident) => (
        <IncidentPanel key={incident.id} incident={incident} />
      ))}
    </section>
  );
}
