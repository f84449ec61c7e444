// health:… — a monitor's health poll (its state, a check now, its history) and a one-off GET
// /health. Which poll a call is about is the core's rule (core.healthPoll).
import type { DomainHandlers, HandlerContext } from './context';

export function healthHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'health'> {
  onClose(core.onHealthUpdate((update) => emit('health:update', update)));
  return {
    'health:get': async () => core.client(core.profile()).health(),
    // A window asks as it opens: during the first poll, the answer waits (briefly) for its outcome.
    'health:status': async ({ monitorId }) => core.healthPoll(monitorId).openingState(),
    'health:check': async ({ monitorId }) => core.healthPoll(monitorId).checkNow(),
    'health:timeline': async ({ range, monitorId }) => core.healthPoll(monitorId).timeline(range),
    'health:incidents': async ({ from, to, monitorId }) => core.healthPoll(monitorId).incidents(from, to),
    'health:configure': async ({ intervalMs }) => core.health.setIntervalMs(intervalMs),
  };
}
