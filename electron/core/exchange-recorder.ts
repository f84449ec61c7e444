// Records what this client says and hears in a session or thread. Used by the core's exchanges
// (exchanges.ts) only, so every front end records the same way.
import type { MessageStatus, TranscriptInit, TranscriptRef } from '../../shared/transcript';
import type { TranscriptStore } from './transcript-store';

export interface AgentMessage {
  content: string;
  status: MessageStatus;
  requestId?: string | undefined;
  /** A readable account of the failure, for `failed`, `partial` and `stopped` messages. */
  error?: string | undefined;
}

export class ExchangeRecorder {
  private readonly init: TranscriptInit;

  private constructor(
    private readonly transcripts: TranscriptStore,
    readonly ref: TranscriptRef,
    init: TranscriptInit,
  ) {
    this.init = init;
  }

  /**
   * Opens the record of a session or thread. `knownFrom` is kept for one that exists; a new one is
   * `start` only when this client began it (a pasted session id or someone else's thread is `partial`).
   */
  static async open(
    transcripts: TranscriptStore,
    ref: TranscriptRef,
    options: { agent: string; startedHere: boolean; title?: string | undefined },
  ): Promise<ExchangeRecorder> {
    const known = await transcripts.head(ref).catch(() => undefined);
    // "default" (no agent chosen) and "unknown" (not known to this caller) never replace a real name.
    const placeholder = options.agent === 'default' || options.agent === 'unknown';
    return new ExchangeRecorder(transcripts, ref, {
      agent: known?.agent && placeholder ? known.agent : options.agent,
      knownFrom: known?.knownFrom ?? (options.startedHere ? 'start' : 'partial'),
      ...((options.title ?? known?.title) ? { title: (options.title ?? known?.title) as string } : {}),
    });
  }

  async user(message: string): Promise<void> {
    await this.transcripts.append(
      this.ref,
      { role: 'user', content: message, status: 'complete' },
      this.init,
    );
  }

  async agent(message: AgentMessage): Promise<void> {
    await this.transcripts.append(
      this.ref,
      {
        role: 'agent',
        content: message.content,
        status: message.status,
        ...(message.requestId ? { requestId: message.requestId } : {}),
        ...(message.error ? { error: message.error } : {}),
      },
      this.init,
    );
    // On disk before the exchange is shown as done. A failed write has been told
    // to the user by the store, which keeps it in memory and retries; the reply is still shown.
    await this.transcripts.sync(this.ref).catch(() => undefined);
  }
}
