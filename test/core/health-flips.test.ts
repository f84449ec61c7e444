// An unconfirmed flip: a status that did not hold long enough to be confirmed, so no
// notification went out, still shows on the Health screen's events, marked as not confirmed.
import { expect, test } from 'vitest';
import { buildTimeline } from '../../electron/core/health-analysis';
import type { HealthSample, MonitorStatus } from '../../shared/health';

const NOW = 10_000_000;
function sample(
  minute: number,
  status: MonitorStatus,
  transition?: [MonitorStatus, MonitorStatus],
): HealthSample {
  return {
    at: NOW - 3_600_000 + minute * 60_000,
    profileId: 'p',
    status,
    ...(transition ? { transition: { from: transition[0], to: transition[1] } } : {}),
  };
}

test('a flip that went back is an event "not confirmed"; a confirmed change is a transition, not a flip', () => {
  const samples = [
    sample(1, 'healthy', ['unknown', 'healthy']),
    sample(2, 'healthy'),
    sample(3, 'unhealthy'),
    sample(4, 'healthy'),
    sample(5, 'degraded'),
    sample(6, 'unreachable'),
    sample(7, 'healthy'),
    sample(8, 'unhealthy'),
    sample(9, 'unhealthy', ['healthy', 'unhealthy']),
  ];
  const marks = buildTimeline(samples, '1h', NOW, 60_000).marks.map((m) => [m.kind, m.label]);
  expect(marks).toEqual([
    ['flip', 'Unhealthy for 1 check, not confirmed (stayed healthy)'],
    ['flip', 'Unreachable for 2 checks, not confirmed (stayed healthy)'],
    ['transition', 'Unhealthy (was healthy)'],
  ]);
});
