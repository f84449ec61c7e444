// The bridge over HTTP + SSE, for the web host (same origin; the token travels in the HttpOnly
// cookie set when the page was opened). A call is a POST of JSON to /bridge/call/<name>; calls made
// together (a first screen makes seven at once) go as one POST to /bridge/calls, whose results come
// back one NDJSON line each, as soon as each is ready. Every event arrives on one EventSource.
import type { BridgeCall, BridgeEvent, BridgeEvents, BridgeResult } from '../../shared/bridge';
import { BRIDGE_BATCH_MAX, BRIDGE_EVENTS, type BridgeTransport } from '../../shared/bridge-api';
import { useHostLink } from '../stores/host-link';

type Result = BridgeResult<unknown>;

interface Queued {
  call: BridgeCall;
  input: unknown;
  settle: (result: Result) => void;
}

const UNREACHABLE: Result = {
  ok: false,
  error: {
    code: 'HOST_UNREACHABLE',
    message: 'The console’s web host is not answering. Is `npm run web` still running?',
  },
};

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });

/** The host's refusal (a wrong token, a stopped core) as every call's result. */
async function refusal(response: Response): Promise<Result> {
  const text = await response.text().catch(() => '');
  return {
    ok: false,
    error: { code: `HOST_${response.status}`, message: text || `The web host answered ${response.status}.` },
  };
}

async function sendOne({ call, input, settle }: Queued): Promise<void> {
  try {
    const response = await post(`/bridge/call/${call}`, input);
    settle(response.ok ? ((await response.json()) as Result) : await refusal(response));
  } catch {
    settle(UNREACHABLE);
  }
}

/** One POST for several calls; each is settled by its own line, in whatever order they finish. */
async function sendBatch(batch: Queued[]): Promise<void> {
  const open = new Set(batch.keys());
  const settle = (index: number, result: Result): void => {
    if (open.delete(index)) batch[index]?.settle(result);
  };
  let failure = UNREACHABLE;
  try {
    const response = await post(
      '/bridge/calls',
      batch.map(({ call, input }) => [call, input]),
    );
    if (!response.ok || !response.body) {
      failure = await refusal(response);
    } else {
      const lines = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let rest = '';
      for (let read = await lines.read(); !read.done; read = await lines.read()) {
        rest += read.value;
        for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
          const [index, result] = JSON.parse(rest.slice(0, end)) as [number, Result];
          rest = rest.slice(end + 1);
          settle(index, result);
        }
      }
    }
  } catch {
    // The host went away mid-answer: what it did not answer is unreachable.
  }
  for (const index of open) settle(index, failure);
}

export function webTransport(): BridgeTransport {
  let queue: Queued[] = [];
  const flush = (): void => {
    const calls = queue;
    queue = [];
    for (let at = 0; at < calls.length; at += BRIDGE_BATCH_MAX) {
      const batch = calls.slice(at, at + BRIDGE_BATCH_MAX);
      void (batch.length === 1 ? sendOne(batch[0] as Queued) : sendBatch(batch));
    }
  };
  return {
    invoke(call: BridgeCall, input: unknown): Promise<Result> {
      return new Promise((settle) => {
        // Calls made in the same turn (one render's effects) leave together once it ends.
        if (queue.length === 0) queueMicrotask(flush);
        queue.push({ call, input: input ?? {}, settle });
      });
    },
    subscribe(listener) {
      const source = new EventSource('/bridge/events', { withCredentials: true });
      // A dropped stream is a stopped (or unreachable) host; the browser keeps trying to reconnect.
      source.addEventListener('open', () => useHostLink.setState({ up: true }));
      source.addEventListener('error', () => useHostLink.setState({ up: false }));
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
