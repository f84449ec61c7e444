// The playground's outbox: replies waiting their turn, and replies waiting for the rate limit.
// One lane per profile and session: a session's messages reach the service in the order typed,
// one at a time, while other sessions and profiles go on. The core applies each key's rate limit,
// so a message held by one key never holds another key's.
import { replyOf, updateReply, type ReplyTurn } from './playground-store';

export class ChatOutbox {
  /** Reply ids waiting, by lane. */
  private readonly lanes = new Map<string, string[]>();
  /** Lanes whose replies are going out now. */
  private readonly pumping = new Set<string>();
  /** "Send when allowed": the timer of each reply counting down. */
  private readonly schedules = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly send: (replyId: string) => Promise<void>) {}

  /** Queues a reply behind the earlier ones of its session. */
  enqueue(id: string): void {
    const reply = replyOf(id);
    if (!reply) return;
    updateReply(id, { status: 'queued' });
    const lane = laneOf(reply);
    const queue = this.lanes.get(lane) ?? [];
    this.lanes.set(lane, queue);
    queue.push(id);
    void this.pump(lane);
  }

  /** Runs `due` at `at` (epoch ms), in place of any countdown the reply had. */
  schedule(id: string, at: number, due: () => void): void {
    clearTimeout(this.schedules.get(id));
    this.schedules.set(
      id,
      setTimeout(
        () => {
          this.schedules.delete(id);
          due();
        },
        Math.max(0, at - Date.now()),
      ),
    );
  }

  unschedule(id: string): void {
    clearTimeout(this.schedules.get(id));
    this.schedules.delete(id);
  }

  private async pump(lane: string): Promise<void> {
    if (this.pumping.has(lane)) return;
    this.pumping.add(lane);
    try {
      const queue = this.lanes.get(lane) ?? [];
      while (queue.length > 0) {
        const id = queue.shift() as string;
        if (replyOf(id)?.status === 'queued') await this.send(id);
      }
    } finally {
      this.pumping.delete(lane);
      this.lanes.delete(lane);
    }
  }
}

function laneOf(reply: ReplyTurn): string {
  return `${reply.request.profileId ?? ''} ${reply.request.session_id ?? reply.id}`;
}
