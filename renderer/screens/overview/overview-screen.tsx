// Overview: one row per monitor — every environment watched, whatever screen is open —
// with its status, last check, uptime, synthetic checks and response times; drill down into the
// Health screen for one; add, edit and test monitors. The rows live in the core; this screen
// follows `monitors:changed`.
import { useState } from 'react';
import type { MonitorView } from '../../../shared/monitor';
import { ErrorMessage } from '../../components/error-message';
import { useMonitors } from '../../data/monitors';
import { MonitorForm } from './monitor-form';
import { OverviewRow } from './overview-row';
import { PublishStatusPage } from './publish-status-page';
import './overview.css';
import { ScreenHeading } from '../../shell/screen-heading';
import { ScrollRegion } from '../../components/scroll-region';

export function OverviewScreen() {
  const monitors = useMonitors();
  const [editing, setEditing] = useState<MonitorView | 'new' | undefined>();
  const [publishing, setPublishing] = useState(false);
  const rows = monitors.data ?? [];
  return (
    <section className="screen overview-screen" data-state={monitors.isSuccess ? 'ready' : 'loading'}>
      <div className="screen-head">
        <ScreenHeading>Overview</ScreenHeading>
        <div className="actions">
          <button type="button" onClick={() => setEditing('new')} disabled={editing !== undefined}>
            Add monitor
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => setPublishing(true)}
            disabled={publishing || rows.length === 0}
          >
            Publish status page…
          </button>
        </div>
      </div>
      {publishing ? <PublishStatusPage onDone={() => setPublishing(false)} /> : null}
      {monitors.isError ? (
        <ErrorMessage error={monitors.error} title="The monitors could not be read." />
      ) : null}
      {editing ? (
        <MonitorForm editing={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
      ) : null}
      {monitors.isSuccess && rows.length === 0 ? (
        <p className="note">
          Nothing is watched yet. Add a monitor to watch a profile’s health — and, with a synthetic check,
          whether its agents really answer — whatever screen is open.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <ScrollRegion label="Monitors table" className="card overview-table-card">
          <table className="overview-table" aria-label="Monitors">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Monitor</th>
                <th scope="col">Last check</th>
                <th scope="col">Uptime 24 h</th>
                <th scope="col">Synthetic (24 h)</th>
                <th scope="col">Response</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((view) => (
                <OverviewRow key={view.id} view={view} onEdit={setEditing} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </section>
  );
}
