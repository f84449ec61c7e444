// What the Health and Usage screens read from the monitor's history: uptime %, a timeline cut
// into at most ~720 buckets (a week of minute samples would be 10,080 SVG points), the marks on it,
// and incident intervals. Pure functions of the samples and "now", so tests need no clock.
import {
  DEFAULT_HEALTH_INTERVAL_MS,
  DOWN_STATUSES,
  HEALTH_RANGES,
  INCIDENT_STATUSES,
  STATUS_SEVERITY,
  STATUS_WORDS,
  UP_STATUSES,
  type HealthIncident,
  type HealthMark,
  type HealthRange,
  type HealthSample,
  type HealthTimeline,
  type HealthTimelinePoint,
  type MonitorStatus,
  type UptimeFigure,
} from '../../shared/health';

const MAX_POINTS = 720;
const MAX_TIMELINE_MARKS = 200;

/**
 * How long one sample speaks for. Past this the console was closed or asleep: that time is
 * unknown, not up or down. Never under 3 default intervals, so older minute samples still count
 * after someone switches to a 10-second interval.
 */
function coverCap(intervalMs: number): number {
  return Math.max(3 * intervalMs, 3 * DEFAULT_HEALTH_INTERVAL_MS);
}

/** Up time over known time in each window; `samples` oldest first, one profile. */
function uptimeFigures(
  samples: HealthSample[],
  now: number,
  intervalMs: number,
  excluded?: (at: number) => boolean,
): UptimeFigure[] {
  const cap = coverCap(intervalMs);
  return (Object.keys(HEALTH_RANGES) as HealthRange[]).map((range) => {
    const windowMs = HEALTH_RANGES[range];
    const start = now - windowMs;
    let up = 0;
    let down = 0;
    samples.forEach((s, i) => {
      const next = samples[i + 1]?.at ?? now;
      const from = Math.max(s.at, start);
      const to = Math.min(next, s.at + cap, now);
      if (to <= from || excluded?.(s.at)) return;
      if (UP_STATUSES.has(s.status)) up += to - from;
      else if (DOWN_STATUSES.has(s.status)) down += to - from;
    });
    const covered = up + down;
    return {
      range,
      percent: covered > 0 ? Math.round((up / covered) * 100_000) / 1000 : null,
      coveredMs: covered,
      windowMs,
    };
  });
}

function markOf(s: HealthSample): HealthMark[] {
  const marks: HealthMark[] = [];
  if (s.deploy) marks.push({ at: s.at, kind: 'deploy', label: `Deploy ${s.deploy.from} → ${s.deploy.to}` });
  if (s.restart) marks.push({ at: s.at, kind: 'restart', label: 'Restart (uptime went down)' });
  // The first "healthy" after a start says nothing new; any other confirmed change is an event.
  if (s.transition && !(s.transition.from === 'unknown' && s.transition.to === 'healthy')) {
    const was =
      s.transition.from === 'unknown' ? '' : ` (was ${STATUS_WORDS[s.transition.from].toLowerCase()})`;
    marks.push({
      at: s.at,
      kind: 'transition',
      label: `${STATUS_WORDS[s.transition.to]}${was}`,
      to: s.transition.to,
    });
  }
  return marks;
}

/**
 * Unconfirmed flips: a run of checks whose status differed from the confirmed one and
 * went back before it was confirmed. No notification was sent for it, but it happened. Fed every
 * sample in order; returns the flip's mark on the check that ended it.
 */
function flipTracker(): (s: HealthSample) => HealthMark | undefined {
  let confirmed: MonitorStatus = 'unknown';
  let run: { at: number; status: MonitorStatus; checks: number } | undefined;
  return (s) => {
    if (s.transition) {
      confirmed = s.transition.to;
      run = undefined;
      return undefined;
    }
    if (confirmed === 'unknown') return undefined;
    if (s.status !== confirmed) {
      run ??= { at: s.at, status: s.status, checks: 0 };
      run.checks++;
      if (STATUS_SEVERITY[s.status] > STATUS_SEVERITY[run.status]) run.status = s.status;
      return undefined;
    }
    if (!run) return undefined;
    const ended = run;
    run = undefined;
    const checks = ended.checks === 1 ? '1 check' : `${ended.checks} checks`;
    return {
      at: ended.at,
      kind: 'flip',
      label: `${STATUS_WORDS[ended.status]} for ${checks}, not confirmed (stayed ${STATUS_WORDS[confirmed].toLowerCase()})`,
      to: ended.status,
    };
  };
}

export function buildTimeline(
  samples: HealthSample[],
  range: HealthRange,
  now: number,
  intervalMs: number,
  excludedFromUptime?: (at: number) => boolean,
): HealthTimeline {
  const windowMs = HEALTH_RANGES[range];
  const from = now - windowMs;
  const inWindow = samples.filter((s) => s.at >= from && s.at <= now).length;
  // Every check as its own point while they fit (an hour even at the 10-s minimum); buckets beyond.
  const bucketMs = inWindow <= MAX_POINTS ? 0 : windowMs / MAX_POINTS;
  const buckets = new Map<
    number,
    { worst: HealthSample['status']; sum: number; max: number; answered: number; n: number }
  >();
  const marks: HealthMark[] = [];
  const flipOf = flipTracker();
  for (const s of samples) {
    const flip = flipOf(s);
    if (flip && flip.at >= from && flip.at <= now) marks.push(flip);
    if (s.at < from || s.at > now) continue;
    const key = bucketMs === 0 ? s.at - from : Math.floor((s.at - from) / bucketMs);
    const b = buckets.get(key) ?? { worst: 'unknown', sum: 0, max: 0, answered: 0, n: 0 };
    if (STATUS_SEVERITY[s.status] > STATUS_SEVERITY[b.worst]) b.worst = s.status;
    if (s.responseMs !== undefined) {
      b.sum += s.responseMs;
      b.max = Math.max(b.max, s.responseMs);
      b.answered++;
    }
    b.n++;
    buckets.set(key, b);
    marks.push(...markOf(s));
  }
  const points: HealthTimelinePoint[] = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, b]) => ({
      at: bucketMs === 0 ? from + key : Math.round(from + key * bucketMs),
      status: b.worst,
      ...(b.answered > 0
        ? { responseMs: Math.round((b.sum / b.answered) * 10) / 10, maxResponseMs: b.max }
        : {}),
      samples: b.n,
    }));
  return {
    range,
    from,
    to: now,
    bucketMs,
    points,
    // Stable: marks of one instant keep the order their checks came in.
    marks: marks.sort((a, b) => a.at - b.at).slice(-MAX_TIMELINE_MARKS),
    uptime: uptimeFigures(samples, now, intervalMs, excludedFromUptime),
  };
}

/**
 * Runs of degraded, unhealthy or unreachable samples between `from` and `to`. A run ends at the
 * next sample that is not one of those, or, after a gap longer than a sample speaks for, one
 * interval after its last sample.
 */
export function findIncidents(
  samples: HealthSample[],
  from: number,
  to: number,
  now: number,
  intervalMs: number,
): HealthIncident[] {
  const cap = coverCap(intervalMs);
  const out: HealthIncident[] = [];
  let open: { start: number; last: number; worst: HealthSample['status'] } | undefined;
  const close = (end: number, ongoing: boolean): void => {
    if (!open) return;
    const start = Math.max(open.start, from);
    const clipped = Math.min(end, to);
    if (clipped >= start) out.push({ start, end: clipped, worst: open.worst, ongoing });
    open = undefined;
  };
  for (const s of samples) {
    if (s.at < from - cap || s.at > to) continue;
    if (open && s.at - open.last > cap) close(open.last + intervalMs, false);
    if (INCIDENT_STATUSES.has(s.status)) {
      if (!open) open = { start: s.at, last: s.at, worst: s.status };
      open.last = s.at;
      if (STATUS_SEVERITY[s.status] > STATUS_SEVERITY[open.worst]) open.worst = s.status;
    } else {
      close(s.at, false);
    }
  }
  if (open) {
    const ongoing = now - open.last <= cap;
    close(ongoing ? now : open.last + intervalMs, ongoing && to >= now);
  }
  return out;
}
