// Records what this client says and hears in a session or thread, whoever sends it (the CLI, the
// playground, the browsers), so a failed or broken send never loses what the user typed.
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
    const known = await transcripts.get(ref).catch(() => undefined);
    return new ExchangeRecorder(transcripts, ref, {
      agent: known?.agent && options.agent === 'default' ? known.agent : options.agent,
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
  }
}
