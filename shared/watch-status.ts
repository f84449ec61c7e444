// What a monitor's row says it is: the service's own status, or one of the console's own —
// a failing synthetic check, over its latency budget (slow), or in a maintenance window. Its own
// file so that incidents (incident.ts) and monitors (monitor.ts) both name it without a cycle.
import type { MonitorStatus } from './health';

/**
 * A monitor's status: the health poll's, or — while the service says it is fine — its synthetic
 * check's, or "slow" while it answers over a latency budget.
 */
export type WatchStatus = MonitorStatus | 'synthetic-failing' | 'slow' | 'maintenance';
