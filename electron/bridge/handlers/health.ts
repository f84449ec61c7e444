// health:… — a monitor's health poll (its state, a check now, its history) and a one-off GET
// /health. Each call is about the monitor named (drill-down from the Overview), else about the
// one watching the active profile: its saved monitor if it has one, else its own poll.
import type { HealthMonitor } from '../../core/health-monitor';
import type { DomainHandlers, HandlerContext } from './context';

export function healthHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'health'> {
  onClose(core.onHealthUpdate((update) => emit('health:update', update)));
  const registry = () => {
    try {
      return core.monitors;
    } catch {
      // Not opened in this process (tests of other parts, tools): only the active profile's poll.
      return undefined;
    }
  };
  const monitor = (monitorId: string | undefined): HealthMonitor => {
    const monitors = registry();
    if (monitorId) return monitors?.get(monitorId)?.health ?? core.health;
    return monitors?.forProfile(core.profiles.active()?.id)?.health ?? core.health;
  };
  return {
    'health:get': async () => core.client(core.profile()).health(),
    // A window asks as it opens: during the first poll, the answer waits (briefly) for its outcome.
    'health:status': async ({ monitorId }) => monitor(monitorId).openingState(),
    'health:check': async ({ monitorId }) => monitor(monitorId).checkNow(),
    'health:timeline': async ({ range, monitorId }) => monitor(monitorId).timeline(range),
    'health:incidents': async ({ from, to, monitorId }) => monitor(monitorId).incidents(from, to),
    'health:configure': async ({ intervalMs }) => core.health.setIntervalMs(intervalMs),
  };
}
