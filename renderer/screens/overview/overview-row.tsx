// One monitor on the Overview: its status, its last check, uptime, its synthetic check's figures,
// the sparkline of response times, its latency budgets, what can be done with it, and under it its
// open incident.
import { lazy, Suspense, useState } from 'react';
import { BUDGET_WORDS, WATCH_WORDS, type MonitorView } from '../../../shared/monitor';
import { ErrorMessage } from '../../components/error-message';
import { RelativeTime } from '../../components/relative-time';
import { useNow } from '../../components/use-now';

import { testNotification, useCheckMonitor } from '../../data/monitors-actions';
import { showHealthOf } from '../../stores/health-view';
import { lateness, ms, percent } from './overview-format';
import { notificationSupport } from '../../components/notification-support';
import { testNotificationWords } from '../health/health-notifier';
import { IncidentPanel } from './incident-panel';

const WINDOW_TIME = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

// Named exports only: React.lazy wants a default, so it is mapped here.
const Sparkline = lazy(() => import('./sparkline').then((m) => ({ default: m.Sparkline })));

interface RowProps {
  view: MonitorView;
  onEdit(view: MonitorView): void;
}

export function OverviewRow({ view, onEdit }: RowProps) {
  const now = useNow(view.health.checking);
  const check = useCheckMonitor();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [told, setTold] = useState<string>();
  const late = lateness(view, now);
  const synthetic = view.synthetic;

  async function act(what: string, run: () => Promise<unknown>) {
    setBusy(what);
    setError(undefined);
    setTold(undefined);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <>
      <tr data-monitor={view.name} data-status={view.status}>
        <td>
          <span className={`overview-status overview-status-${view.status}`}>{WATCH_WORDS[view.status]}</span>
          {view.since !== undefined ? (
            <div className="muted overview-since">
              since <RelativeTime iso={new Date(view.since).toISOString()} />
            </div>
          ) : null}
          {view.maintenance?.active ? (
            <div className="overview-maintenance" data-testid="maintenance">
              {view.maintenance.active.name ?? 'Maintenance'} until{' '}
              {WINDOW_TIME.format(view.maintenance.active.to)}
            </div>
          ) : view.maintenance?.next ? (
            <div className="overview-maintenance muted" data-testid="maintenance">
              Maintenance {WINDOW_TIME.format(view.maintenance.next.from)}
            </div>
          ) : null}
        </td>
        <td>
          <strong>{view.name}</strong>
          {view.implicit ? <div className="muted">the active profile (not saved as a monitor)</div> : null}
          {!view.implicit && view.profileName !== view.name ? (
            <div className="muted">{view.profileName}</div>
          ) : null}
        </td>
        <td>
          {view.health.lastCheckAt !== undefined ? (
            <RelativeTime iso={new Date(view.health.lastCheckAt).toISOString()} />
          ) : (
            <span className="muted">{view.health.idleReason ?? 'not yet'}</span>
          )}
          {view.health.lastResponseMs !== undefined ? (
            <div className="muted">{ms(view.health.lastResponseMs)}</div>
          ) : null}
          {late ? (
            <div className="overview-late" data-testid="lateness">
              {late}
            </div>
          ) : null}
        </td>
        <td>
          {percent(view.uptime['24h'])}
          <div className="muted">7 d {percent(view.uptime['7d'])}</div>
        </td>
        <td>
          {synthetic ? (
            <>
              <span className={synthetic.failing ? 'overview-bad' : undefined}>
                {synthetic.passed24h.passed}/{synthetic.passed24h.runs} passed
              </span>
              {synthetic.ttft24h ? (
                <div className="muted">
                  TTFT p50 {ms(synthetic.ttft24h.p50)} · p95 {ms(synthetic.ttft24h.p95)}
                </div>
              ) : null}
              {synthetic.last?.find((r) => !r.passed)?.failure ? (
                <div className="overview-failure" title={synthetic.last.find((r) => !r.passed)?.failure}>
                  {synthetic.last.find((r) => !r.passed)?.failure}
                </div>
              ) : null}
            </>
          ) : (
            <span className="muted">none</span>
          )}
          {view.budgets?.map((b) => (
            <div key={b.name} className={b.over ? 'overview-bad' : 'muted'} data-budget={b.name}>
              {BUDGET_WORDS[b.name]} {b.observedMs !== undefined ? ms(b.observedMs) : '—'} / {ms(b.limitMs)}
            </div>
          ))}
        </td>
        <td>
          <Suspense fallback={<span className="muted">…</span>}>
            <Sparkline values={view.responseMs} label={`Response times of ${view.name}'s last checks`} />
          </Suspense>
        </td>
        <td>
          <div className="overview-actions">
            <button
              type="button"
              className="secondary"
              onClick={() => showHealthOf(view.implicit ? undefined : view.id)}
            >
              Details
            </button>
            <button
              type="button"
              className="secondary"
              disabled={busy !== undefined}
              onClick={() => void act('check', () => check.mutateAsync(view.id))}
            >
              {busy === 'check' ? 'Checking…' : 'Check now'}
            </button>
            <button type="button" className="secondary" onClick={() => onEdit(view)}>
              {view.implicit ? 'Keep watching…' : 'Edit…'}
            </button>
            {!view.implicit ? (
              <button
                type="button"
                className="secondary"
                disabled={busy !== undefined}
                onClick={() =>
                  void act('test', async () => {
                    const result = await testNotification(view.id);
                    setTold(testNotificationWords(result, notificationSupport()));
                  })
                }
              >
                Test notification
              </button>
            ) : null}
            {told ? (
              <div className="muted" role="status">
                {told}
              </div>
            ) : null}
            {error ? <ErrorMessage error={error} title="That did not work." /> : null}
          </div>
        </td>
      </tr>
      {view.incident ? (
        <tr className="overview-incident-row" data-incident-of={view.name}>
          <td colSpan={7}>
            <IncidentPanel incident={view.incident} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
