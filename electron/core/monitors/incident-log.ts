// The incidents of every monitor, kept as a JSON-lines journal of what happened to them (opened,
// status, acknowledged, update, escalated, resolved) in <data dir>/monitors/incidents.jsonl, each
// line on the disk before the call returns: an acknowledgement a person saw must survive the
// process being killed the next moment. Incidents are rare and a report reads a year of them, so
// the journal is kept whole; reading it back replays the lines.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { WatchStatus } from '../../../shared/monitor';
import type { Incident } from '../../../shared/incident';
import { isOpen } from '../../../shared/incident';
import { CoreError } from '../core-error';
import { appendPrivateFileDurablySync, readPrivateFileSync } from '../private-files';

type Entry =
  | { e: 'opened'; incident: Incident }
  | { e: 'status'; id: string; at: number; status: WatchStatus; text: string }
  | { e: 'acknowledged'; id: string; at: number; by: string }
  | { e: 'update'; id: string; at: number; by: string; text: string }
  | { e: 'escalated'; id: string; at: number }
  | { e: 'resolved'; id: string; at: number; by: string };

/** Who an update from the monitor itself is by. */
export const BY_MONITOR = 'monitor';
const MAX_UPDATE_TEXT = 2000;

export class IncidentLog {
  private readonly incidents = new Map<string, Incident>();
  /** Each monitor's open incident, by monitor id: read on every row and every scrape. */
  private readonly openByMonitor = new Map<string, Incident>();

  /** `file` none: kept in memory (tests). */
  constructor(private readonly file: string | undefined) {
    if (!file || !existsSync(file)) return;
    for (const line of readPrivateFileSync(file).split('\n')) {
      if (!line.trim()) continue;
      try {
        this.apply(JSON.parse(line) as Entry);
      } catch {
        // A line cut short by a crash mid-write is the last one: what came before stands.
      }
    }
  }

  list(filter: { monitorId?: string; open?: boolean; from?: number; to?: number } = {}): Incident[] {
    return [...this.incidents.values()]
      .filter((i) => filter.monitorId === undefined || i.monitorId === filter.monitorId)
      .filter((i) => filter.open === undefined || isOpen(i) === filter.open)
      .filter((i) => filter.to === undefined || i.startedAt < filter.to)
      .filter((i) => filter.from === undefined || (i.resolved?.at ?? Infinity) > filter.from)
      .sort((a, b) => b.startedAt - a.startedAt)
      .map((i) => structuredClone(i));
  }

  get(id: string): Incident {
    const incident = this.incidents.get(id);
    if (!incident) throw new CoreError('NOT_FOUND', 'There is no such incident.');
    return structuredClone(incident);
  }

  /** The monitor's open incident, if any (a monitor has at most one). */
  openFor(monitorId: string): Incident | undefined {
    const open = this.openByMonitor.get(monitorId);
    return open ? structuredClone(open) : undefined;
  }

  open(
    fields: Pick<Incident, 'monitorId' | 'monitorName' | 'status' | 'startedAt' | 'checks' | 'firstFailure'>,
  ): Incident {
    const incident: Incident = { id: randomUUID().slice(0, 12), ...fields, updates: [], escalations: 0 };
    this.record({ e: 'opened', incident });
    return this.get(incident.id);
  }

  status(id: string, at: number, status: WatchStatus, text: string): Incident {
    this.record({ e: 'status', id, at, status, text });
    return this.get(id);
  }

  acknowledge(id: string, at: number, by: string): Incident {
    const incident = this.get(id);
    if (!isOpen(incident)) throw new CoreError('RESOLVED', 'The incident is resolved already.');
    if (!incident.acknowledged) this.record({ e: 'acknowledged', id, at, by });
    return this.get(id);
  }

  update(id: string, at: number, by: string, text: string): Incident {
    const words = text.trim();
    if (!words) throw new CoreError('EMPTY_UPDATE', 'Write what is known before adding the update.');
    this.get(id);
    this.record({ e: 'update', id, at, by, text: words.slice(0, MAX_UPDATE_TEXT) });
    return this.get(id);
  }

  escalated(id: string, at: number): void {
    this.record({ e: 'escalated', id, at });
  }

  resolve(id: string, at: number, by: string): Incident {
    if (isOpen(this.get(id))) this.record({ e: 'resolved', id, at, by });
    return this.get(id);
  }

  private record(entry: Entry): void {
    if (this.file) appendPrivateFileDurablySync(this.file, `${JSON.stringify(entry)}\n`);
    this.apply(entry);
  }

  private apply(entry: Entry): void {
    if (entry.e === 'opened') {
      const incident = structuredClone(entry.incident);
      this.incidents.set(incident.id, incident);
      this.openByMonitor.set(incident.monitorId, incident);
      return;
    }
    const incident = this.incidents.get(entry.id);
    if (!incident) return;
    switch (entry.e) {
      case 'status':
        incident.status = entry.status;
        incident.updates.push({ at: entry.at, by: BY_MONITOR, text: entry.text });
        break;
      case 'acknowledged':
        incident.acknowledged = { by: entry.by, at: entry.at };
        break;
      case 'update':
        incident.updates.push({ at: entry.at, by: entry.by, text: entry.text });
        break;
      case 'escalated':
        incident.escalations++;
        break;
      case 'resolved':
        incident.resolved = { at: entry.at, by: entry.by };
        if (this.openByMonitor.get(incident.monitorId) === incident)
          this.openByMonitor.delete(incident.monitorId);
        break;
    }
  }
}
