// The bridge over HTTP + SSE, for the web host: each call is a POST of JSON to /bridge/call/<name>
// (same origin; the token travels in the HttpOnly cookie set when the page was opened), and every
// event arrives on one EventSource.
import type { BridgeCall, BridgeEvent, BridgeEvents, BridgeResult } from '../../shared/bridge';
import { BRIDGE_EVENTS, type BridgeTransport } from '../../shared/bridge-api';

export function webTransport(): BridgeTransport {
  return {
    async invoke(call: BridgeCall, input: unknown): Promise<BridgeResult<unknown>> {
      let response: Response;
      try {
        response = await fetch(`/bridge/call/${call}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch {
        return {
          ok: false,
          error: {
            code: 'HOST_UNREACHABLE',
            message: 'The console’s web host is not answering. Is `npm run web` still running?',
          },
        };
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        return {
          ok: false,
          error: {
            code: `HOST_${response.status}`,
            message: text || `The web host answered ${response.status}.`,
          },
        };
      }
      return (await response.json()) as BridgeResult<unknown>;
    },
    subscribe(listener) {
      const source = new EventSource('/bridge/events', { withCredentials: true });
      for (const event of BRIDGE_EVENTS) {
        source.addEventListener(event, (message) => {
          const payload = JSON.parse((message as MessageEvent<string>).data) as BridgeEvents[BridgeEvent];
          listener(event, payload as never);
        });
      }
      return () => source.close();
    },
  };
}
