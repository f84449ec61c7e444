// health:… — a one-off GET /health, and a monitor's health poll: its state, a check now, its
// history. Each call is about the monitor named (drill-down from the Overview), else about the
// monitor of the active profile.
import { z } from 'zod';
import {
  HEALTH_RANGES,
  MAX_HEALTH_INTERVAL_MS,
  MIN_HEALTH_INTERVAL_MS,
  type HealthIncident,
  type HealthMonitorState,
  type HealthRange,
  type HealthTimeline,
  type HealthUpdate,
} from '../health';
import type { ReceivedHealthReport as HealthReport } from '../received';
import { id, none, returns, type DomainCalls } from './schemas';

export const HEALTH_CALLS = {
  'health:get': { input: none, output: returns<HealthReport>() },
  'health:status': {
    input: z.strictObject({ monitorId: id.optional() }),
    output: returns<HealthMonitorState>(),
  },
  'health:check': { input: z.strictObject({ monitorId: id.optional() }), output: returns<HealthUpdate>() },
  'health:timeline': {
    input: z.strictObject({
      range: z.enum(Object.keys(HEALTH_RANGES) as [HealthRange, ...HealthRange[]]),
      monitorId: id.optional(),
    }),
    output: returns<HealthTimeline>(),
  },
  'health:incidents': {
    input: z.strictObject({
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      monitorId: id.optional(),
    }),
    output: returns<HealthIncident[]>(),
  },
  'health:configure': {
    input: z.strictObject({
      intervalMs: z.number().int().min(MIN_HEALTH_INTERVAL_MS).max(MAX_HEALTH_INTERVAL_MS),
    }),
    output: returns<HealthMonitorState>(),
  },
} as const satisfies DomainCalls<'health'>;

export interface HealthEvents {
  /** After every check of any monitor; `monitorId` absent for the active profile's own poll. */
  'health:update': HealthUpdate & { monitorId?: string };
}
