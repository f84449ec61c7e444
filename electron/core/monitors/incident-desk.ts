// Where a saved monitor's confirmed changes become incidents people act on: a change to a bad
// status opens one (or, while one is open, notes the new status in it), a recovery resolves it,
// and an open one nobody has acknowledged is told again every `notify.escalate.after` through the
// channels `escalate.to` names, until someone acknowledges or it ends (docs/architecture.md,
// "Incidents"). The journal is incident-log.ts.
import type { Clock } from '../../../shared/clock';
import { INCIDENT_OPENING, type Incident } from '../../../shared/incident';
import { WATCH_WORDS, type MonitorNotification } from '../../../shared/monitor';
import { BY_MONITOR, IncidentLog } from './incident-log';

export type Telling = Omit<MonitorNotification, 'desktop'>;

export interface IncidentDeskHost {
  clock: Clock;
  /** The monitor's escalation, if its file sets one. */
  escalation(monitorId: string): { afterMs: number; to?: string[] } | undefined;
  /** Tells a re-notification through the monitor's desktop setting and the webhooks named (all when none are). */
  renotify(telling: Telling, webhookIds: string[] | undefined): void;
  /** Someone (or the monitor) changed an incident: the screens read them again. */
  changed(): void;
  /** A person acknowledged or resolved it: the channels that track incidents (PagerDuty) follow. */
  acted?(incident: Incident, action: 'acknowledge' | 'resolve'): void;
  /** The name a person acts under when none is given (settings, else the OS user). */
  operator(): string;
}

/** How long the escalation loop sleeps when nothing is due. */
const IDLE_MS = 3_600_000;

export class IncidentDesk {
  readonly log: IncidentLog;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: AbortController | undefined;
  /** When each open incident was last told (in memory: after a restart, one `after` from then). */
  private readonly toldAt = new Map<string, number>();

  constructor(
    private readonly host: IncidentDeskHost,
    file: string | undefined,
  ) {
    this.log = new IncidentLog(file);
    const now = host.clock.now();
    for (const incident of this.log.list({ open: true })) this.toldAt.set(incident.id, now);
  }

  /** A saved monitor's confirmed change; answers the incident it belongs to, if any. */
  onTransition(telling: Telling, failingChecks: string[]): Incident | undefined {
    const open = this.log.openFor(telling.monitorId);
    let incident: Incident | undefined;
    if (INCIDENT_OPENING.has(telling.to)) {
      incident = open
        ? this.log.status(
            open.id,
            telling.at,
            telling.to,
            `Now ${WATCH_WORDS[telling.to].toLowerCase()}: ${telling.body}`,
          )
        : this.log.open({
            monitorId: telling.monitorId,
            monitorName: telling.monitorName,
            status: telling.to,
            startedAt: telling.at,
            checks: failingChecks,
            firstFailure: telling.body,
          });
      this.toldAt.set(incident.id, telling.at);
    } else if (open && telling.to === 'healthy') {
      incident = this.log.resolve(open.id, telling.at, BY_MONITOR);
      this.toldAt.delete(open.id);
    } else {
      return undefined;
    }
    this.host.changed();
    this.wake?.abort();
    return incident;
  }

  acknowledge(id: string, by?: string): Incident {
    const incident = this.log.acknowledge(id, this.host.clock.now(), this.who(by));
    this.host.changed();
    this.host.acted?.(incident, 'acknowledge');
    return incident;
  }

  addUpdate(id: string, text: string, by?: string): Incident {
    const incident = this.log.update(id, this.host.clock.now(), this.who(by), text);
    this.host.changed();
    return incident;
  }

  /** Resolved by a person: the monitor's own recovery resolves it too. */
  resolve(id: string, by?: string): Incident {
    const incident = this.log.resolve(id, this.host.clock.now(), this.who(by));
    this.toldAt.delete(id);
    this.host.changed();
    this.host.acted?.(incident, 'resolve');
    return incident;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.escalate();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.abort();
    await this.loop;
  }

  private who(by: string | undefined): string {
    return by?.trim() || this.host.operator();
  }

  private async escalate(): Promise<void> {
    while (this.running) {
      const now = this.host.clock.now();
      let next = now + IDLE_MS;
      for (const incident of this.log.list({ open: true })) {
        const escalation = this.host.escalation(incident.monitorId);
        if (incident.acknowledged || !escalation) continue;
        let due = (this.toldAt.get(incident.id) ?? incident.startedAt) + escalation.afterMs;
        if (due <= now) {
          this.renotify(incident, now, escalation.to);
          due = now + escalation.afterMs;
        }
        next = Math.min(next, due);
      }
      this.wake = new AbortController();
      await this.host.clock.sleep(next - now, this.wake.signal).catch(() => undefined);
      this.wake = undefined;
    }
  }

  private renotify(incident: Incident, now: number, to: string[] | undefined): void {
    this.log.escalated(incident.id, now);
    this.toldAt.set(incident.id, now);
    const minutes = Math.round((now - incident.startedAt) / 60_000);
    const status = WATCH_WORDS[incident.status];
    this.host.renotify(
      {
        monitorId: incident.monitorId,
        monitorName: incident.monitorName,
        from: incident.status,
        to: incident.status,
        at: now,
        title: `Not acknowledged: ${status}`,
        body: `${incident.monitorName}: ${status.toLowerCase()} for ${minutes} min and nobody has acknowledged it. ${incident.firstFailure}`,
        incidentId: incident.id,
        escalation: incident.escalations + 1,
      },
      to,
    );
    this.host.changed();
  }
}
