// Incidents: what people do about a monitor's outage — own it (acknowledge), say what they know
// (updates), and see it end (resolved on recovery, or by hand). Not the Health screen's incident
// bands, which are periods drawn from the health history; an incident here is opened by a
// confirmed change and kept in the data folder (docs/architecture.md, "Incidents").
import type { WatchStatus } from './watch-status';

/** Statuses that open an incident when a change to them is confirmed; healthy resolves it. */
export const INCIDENT_OPENING: ReadonlySet<WatchStatus> = new Set([
  'degraded',
  'slow',
  'synthetic-failing',
  'unhealthy',
  'unreachable',
  'key-rejected',
]);

interface IncidentUpdate {
  at: number;
  /** Who wrote it; "monitor" for what the monitor itself noted (a status that changed again). */
  by: string;
  text: string;
}

export interface Incident {
  id: string;
  monitorId: string;
  monitorName: string;
  /** The status that opened it, then the newest bad one while it stays open. */
  status: WatchStatus;
  startedAt: number;
  /** What failed: the health poll, and the synthetic checks (case on agent) that failed. */
  checks: string[];
  /** The first failure, in words (the notification's). */
  firstFailure: string;
  acknowledged?: { by: string; at: number };
  updates: IncidentUpdate[];
  resolved?: { at: number; by: string };
  /** Re-notifications sent while nobody acknowledged it. */
  escalations: number;
}

export const isOpen = (incident: Incident): boolean => incident.resolved === undefined;

/** The name people acknowledge and update incidents under: the one set in Settings, else the OS user's. */
export interface IncidentName {
  /** Set in Settings; absent, incidents carry `osUser`. */
  name?: string;
  osUser: string;
}
