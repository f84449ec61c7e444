// The status page as one HTML file: inline CSS, no script, nothing fetched (a Content-Security-Policy
// forbids any request), light and dark by the reader's system setting, so it works from any plain
// folder — nginx, GitHub Pages, a bucket — or a file opened from disk. Every text in it came from a
// monitors file, the service or a person, and is escaped.
import { escapeHtml } from '../../../shared/html-text';
import { pageTime, PUBLIC_WORDS, type StatusDay, type StatusPage } from './status-page';

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f8fa; --card: #fff; --fg: #1f2328; --muted: #59636e;
  --line: #d1d9e0; --operational: #1a7f37; --degraded: #bf8700; --partial-outage: #d1570f;
  --outage: #cf222e; --maintenance: #0969da; --no-data: #c4cbd3; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --card: #151b23; --fg: #e6edf3;
  --muted: #9198a1; --line: #3d444d; --operational: #3fb950; --degraded: #d29922;
  --partial-outage: #f0883e; --outage: #f85149; --maintenance: #4493f8; --no-data: #3d444d; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 32px 20px 48px; }
h1 { font-size: 24px; margin: 0 0 16px; }
h2 { font-size: 17px; margin: 28px 0 10px; }
h3 { font-size: 15px; margin: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin: 0 0 12px; }
.headline { display: flex; align-items: center; gap: 10px; font-size: 18px; font-weight: 600; }
.dot { width: 12px; height: 12px; border-radius: 50%; flex: none; }
.monitor-head { display: flex; justify-content: space-between; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.level { font-weight: 600; }
.days { display: flex; gap: 2px; margin: 10px 0 4px; padding: 0; list-style: none; height: 34px; }
.days li { flex: 1 1 0; min-width: 2px; border-radius: 2px; }
.days li:hover { opacity: .7; outline: 1px solid var(--fg); }
.scale { display: flex; justify-content: space-between; color: var(--muted); font-size: 12px; }
.muted { color: var(--muted); }
.updates { margin: 8px 0 0; padding: 0; list-style: none; }
.windows { list-style: none; }
.windows li + li { margin-top: 6px; }
.updates li { margin: 4px 0; }
.detail { white-space: pre-wrap; word-break: break-word; font-size: 13px; }
footer { color: var(--muted); font-size: 12px; margin-top: 28px; }
${(Object.keys(PUBLIC_WORDS) as (keyof typeof PUBLIC_WORDS)[])
  .map((level) => `.l-${level} { background: var(--${level}); } .t-${level} { color: var(--${level}); }`)
  .join('\n')}
`;

const esc = escapeHtml;

function dayLabel(day: StatusDay): string {
  return day.availability === null
    ? `${day.date}: no data`
    : `${day.date}: ${day.availability}% available, ${PUBLIC_WORDS[day.level].toLowerCase()}`;
}

function monitorCard(monitor: StatusPage['monitors'][number]): string {
  const days = monitor.days
    .map((d) => {
      const label = esc(dayLabel(d));
      return `<li class="l-${d.level}" title="${label}" aria-label="${label}"></li>`;
    })
    .join('');
  const failing = monitor.failing
    ? `<p class="detail muted">Failing: ${esc(monitor.failing.join('; '))}</p>`
    : '';
  return `<section class="card" aria-label="${esc(monitor.name)}">
<div class="monitor-head"><h3>${esc(monitor.name)}</h3><span class="level t-${monitor.level}">${esc(monitor.words)}</span></div>
<ol class="days" aria-label="${esc(`${monitor.name}: the last ${monitor.days.length} days`)}">${days}</ol>
<div class="scale"><span>${monitor.days.length} days ago</span><span>${monitor.availability === null ? 'No data' : `${monitor.availability}% available`}</span><span>Today</span></div>
${failing}</section>`;
}

function incidentCard(incident: StatusPage['incidents'][number]): string {
  const updates = incident.updates.length
    ? `<ol class="updates" aria-label="Updates">${incident.updates
        .map((u) => `<li><span class="muted">${esc(pageTime(u.at))}</span> — ${esc(u.text)}</li>`)
        .join('')}</ol>`
    : '';
  const first = incident.firstFailure ? `<p class="detail muted">${esc(incident.firstFailure)}</p>` : '';
  return `<section class="card" aria-label="${esc(`Incident: ${incident.monitor}`)}">
<div class="monitor-head"><h3>${esc(incident.monitor)}: <span class="t-${incident.level}">${esc(incident.words)}</span></h3>
<span class="muted">${incident.acknowledged ? 'Identified, being worked on' : 'Investigating'}</span></div>
<p class="muted">Since ${esc(pageTime(incident.startedAt))}</p>${first}${updates}</section>`;
}

function maintenanceCard(window: StatusPage['maintenance'][number]): string {
  const what = window.name ? `${window.monitor}: ${window.name}` : window.monitor;
  return `<li><strong>${esc(what)}</strong> — ${esc(pageTime(window.from))} to ${esc(pageTime(window.to))}${window.underWay ? ' <span class="t-maintenance">(under way)</span>' : ''}</li>`;
}

export function statusPageHtml(page: StatusPage): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(`${page.title}: ${page.words}`)}</title>
<style>${STYLE}</style></head><body><main>
<h1>${esc(page.title)}</h1>
<div class="card headline" role="status"><span class="dot l-${page.level}"></span>${esc(page.words)}</div>
${page.incidents.length ? `<h2>Open incidents</h2>\n${page.incidents.map(incidentCard).join('\n')}` : ''}
${
  page.maintenance.length
    ? `<h2>Maintenance</h2>\n<ul class="card windows">${page.maintenance.map(maintenanceCard).join('')}</ul>`
    : ''
}
<h2>Services</h2>
${page.monitors.map(monitorCard).join('\n')}
<footer>Updated ${esc(pageTime(page.generatedAt))}. Each bar is one day (UTC), coloured by its worst status; hover for its availability. Also as <a href="status.json">status.json</a>.</footer>
</main></body></html>
`;
}
