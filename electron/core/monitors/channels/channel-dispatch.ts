// Where a monitor's notifications leave for its channels (docs/architecture.md, "Channels"): each
// channel's credential read where it is kept, its payload built and guarded (output-guard.ts: no
// secret leaves in a body), and sent in the background so that a slow or broken receiver never
// holds up a check. Stopping ends every wait at once.
import type { Incident } from '../../../../shared/incident';
import type { MonitorNotification } from '../../../../shared/monitor';
import { guardValue } from '../../output-guard';
import type { SecretStore } from '../../secret-store';
import { PAGERDUTY_EVENTS_URL, type ChannelConfig } from './channel-config';
import { secretValue } from './channel-secrets';
import { discordPayload, teamsPayload } from './chat-cards';
import { sendEmail } from './email';
import { postJson, postWebhook, type PostOptions } from './http-post';
import { dedupKey, pagerDutyAction, triggerEvent, type PagerDutyAction } from './pagerduty';

export interface ChannelDispatchHost {
  secrets: SecretStore;
  /** The core's clock: waits between attempts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  onWarning?: (message: string) => void;
  /** One attempt's limit (10 s for HTTP, 15 s per SMTP step by default). */
  timeoutMs?: number;
}

const WHAT: Record<'teams' | 'discord' | 'pagerduty', string> = {
  teams: 'The Teams webhook',
  discord: 'The Discord webhook',
  pagerduty: 'PagerDuty',
};

const guardedJson = (payload: unknown): string => JSON.stringify(guardValue(payload));

export class ChannelDispatch {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();

  constructor(private readonly host: ChannelDispatchHost) {}

  /** Tells each channel in the background; one that fails is a warning naming the monitor. */
  send(channels: readonly ChannelConfig[], n: MonitorNotification, source: string): void {
    for (const channel of channels) this.track(n.monitorName, this.deliver(channel, n, source));
  }

  /** Tells each channel now: how many took it, and why the others did not. */
  async test(
    channels: readonly ChannelConfig[],
    n: MonitorNotification,
    source: string,
  ): Promise<{ delivered: number; failures: string[] }> {
    let delivered = 0;
    const failures: string[] = [];
    for (const channel of channels) {
      try {
        if (await this.deliver(channel, n, source)) delivered++;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    return { delivered, failures };
  }

  /** A person acknowledged or resolved an incident: its PagerDuty alert follows. */
  incidentActed(channels: readonly ChannelConfig[], incident: Incident, action: PagerDutyAction): void {
    for (const channel of channels) {
      if (channel.kind !== 'pagerduty') continue;
      this.track(
        incident.monitorName,
        this.pagerDuty(channel, { event_action: action, dedup_key: dedupKey(incident.id) }),
      );
    }
  }

  /** Ends every delivery's waits, and waits for them to end. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('The monitors stopped.'));
    await Promise.allSettled([...this.pending]);
  }

  private track(monitorName: string, delivery: Promise<unknown>): void {
    const tracked = delivery.catch((error: unknown) => {
      if (!this.stopping.signal.aborted)
        this.host.onWarning?.(`Monitor "${monitorName}": ${(error as Error).message}`);
    });
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private get options(): PostOptions {
    const signal = this.stopping.signal;
    return {
      sleep: (ms) => this.host.sleep(ms, signal),
      signal,
      ...(this.host.timeoutMs !== undefined ? { timeoutMs: this.host.timeoutMs } : {}),
    };
  }

  /** Sends one notification to one channel; false when it has nothing to tell that channel. */
  private async deliver(channel: ChannelConfig, n: MonitorNotification, source: string): Promise<boolean> {
    const secrets = this.host.secrets;
    switch (channel.kind) {
      case 'webhook': {
        const url =
          typeof channel.url === 'string'
            ? channel.url
            : await secretValue(secrets, channel.url, 'a webhook URL');
        await postWebhook(url, channel.format, n, this.options);
        return true;
      }
      case 'teams':
      case 'discord': {
        const url = await secretValue(
          secrets,
          channel.url,
          `a ${channel.kind === 'teams' ? 'Teams' : 'Discord'} webhook URL`,
        );
        const payload = channel.kind === 'teams' ? teamsPayload(n) : discordPayload(n);
        await postJson(url, guardedJson(payload), WHAT[channel.kind], this.options);
        return true;
      }
      case 'pagerduty': {
        if (n.test) {
          const dedup = `agent-console-test-${n.monitorId}-${n.at}`;
          await this.pagerDuty(channel, triggerEvent(n, dedup, source));
          await this.pagerDuty(channel, { event_action: 'resolve', dedup_key: dedup });
          return true;
        }
        const action = pagerDutyAction(n);
        if (!action || !n.incidentId) return false;
        const dedup = dedupKey(n.incidentId);
        await this.pagerDuty(
          channel,
          action === 'trigger' ? triggerEvent(n, dedup, source) : { event_action: action, dedup_key: dedup },
        );
        return true;
      }
      case 'email': {
        const password = channel.password
          ? await secretValue(secrets, channel.password, 'an SMTP password')
          : undefined;
        await sendEmail(channel, password, guardValue(n), {
          signal: this.stopping.signal,
          ...(this.host.timeoutMs !== undefined ? { timeoutMs: this.host.timeoutMs } : {}),
        });
        return true;
      }
    }
  }

  private async pagerDuty(
    channel: Extract<ChannelConfig, { kind: 'pagerduty' }>,
    event: Record<string, unknown>,
  ): Promise<void> {
    const routingKey = await secretValue(this.host.secrets, channel.routingKey, 'a PagerDuty routing key');
    // The key goes in after the guard, which would mask it: it is the one secret this body must carry.
    const body = JSON.stringify({ routing_key: routingKey, ...guardValue(event) });
    await postJson(channel.endpoint ?? PAGERDUTY_EVENTS_URL, body, WHAT.pagerduty, this.options);
  }
}
