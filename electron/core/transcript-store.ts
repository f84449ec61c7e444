// The local record of every message this client sent and received, per profile, by chat session id
// and by thread id. The API returns no message history (docs/decisions.md), so this store is the only history there is, and it says plainly how much of it it knows.
//
// On disk: <dataDir>/transcripts/profile.<name>/<kind>.<name>.json, one file per transcript, written
// atomically (a crash leaves the old file or the new one, never half of one) and fsync'd. Files are
// read on first use, and a burst of appends becomes one write; `sync(ref)` writes one transcript now,
// so an exchange is on disk before it is shown as done. A write that fails (a
// full or read-only disk) keeps the data in memory, tells the user, and is tried again until it lands.
import { readdir, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Clock } from '../../shared/clock';
import { describeWriteError } from '../../shared/write-error';
import {
  KnownFrom,
  TranscriptMessage,
  type Transcript,
  type TranscriptKind,
  type TranscriptInit,
  type TranscriptMessageInput,
  type TranscriptRef,
  type TranscriptSummary,
} from '../../shared/transcript';
import { ensurePrivateDir, replacePrivateFile } from './private-files';
import { redactSecrets } from './redact';
import {
  isMissing,
  profileDir,
  readTranscriptFile,
  TranscriptFileError,
  transcriptFile,
  transcriptText,
} from './transcript-file';

export * from '../../shared/transcript';

export interface TranscriptListing {
  /** Most recent activity first. */
  summaries: TranscriptSummary[];
  /** Files that exist but could not be read; they are left as they are for the user to look at. */
  unreadable: TranscriptFileError[];
}

export interface TranscriptStoreOptions {
  clock?: Pick<Clock, 'now'>;
  /** How long appends are gathered before one write. */
  writeDelayMs?: number;
  /** The disk seam; defaults to private-files.ts's atomic replace. Tests wrap it to count writes. */
  writeFile?: (file: string, data: string) => Promise<void>;
  /** A write failed. The data stays in memory, marked dirty, and is retried (and at `flush()`). */
  onWriteError?: (error: TranscriptFileError) => void;
  /** Told when writes land again after a failure. */
  onWriteRecovered?: (root: string) => void;
}

const PREVIEW_CHARS = 200;
const LIST_READ_BATCH = 32;
const DEFAULT_WRITE_DELAY_MS = 50;
/** How long after a failed write it is tried again, at first and at most. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

interface Slot {
  readonly file: string;
  /** null: no such transcript (yet). Meaningful only once `loaded`. */
  data: Transcript | null;
  loaded: boolean;
  loading: Promise<void> | undefined;
  dirty: boolean;
  /** Writes and removal of this file, in order; never rejects. */
  chain: Promise<void>;
}

export class TranscriptStore {
  readonly root: string;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly writeDelayMs: number;
  private readonly writeFile: (file: string, data: string) => Promise<void>;
  private readonly onWriteError: (error: TranscriptFileError) => void;
  private readonly slots = new Map<string, Slot>();
  /** Appends and marks still waiting for their file to load; `flush()` waits for them too. */
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;
  private failing = false;
  private readonly onWriteRecovered: (root: string) => void;

  constructor(dataDir: string, options: TranscriptStoreOptions = {}) {
    this.root = join(resolve(dataDir), 'transcripts');
    this.clock = options.clock ?? { now: () => Date.now() };
    this.writeDelayMs = options.writeDelayMs ?? DEFAULT_WRITE_DELAY_MS;
    // 0o600: transcripts are private conversations, readable by their owner only (ignored on Windows).
    this.writeFile = options.writeFile ?? ((file, data) => replacePrivateFile(file, data));
    this.onWriteError = options.onWriteError ?? ((error) => console.error(error.message, error.cause));
    this.onWriteRecovered = options.onWriteRecovered ?? (() => undefined);
  }

  /** Where the transcript lives on disk (whether or not it exists yet). */
  fileOf(ref: TranscriptRef): string {
    return transcriptFile(this.root, ref);
  }

  /**
   * Adds a message (its content redacted of anything key-shaped) and resolves once it is in memory;
   * the write follows shortly, or at `flush()`. `init` is required when the transcript is new; on an
   * existing one it may update the agent and title (its `knownFrom` changes only via `markKnownFrom`).
   */
  append(
    ref: TranscriptRef,
    message: TranscriptMessageInput,
    init?: TranscriptInit,
  ): Promise<TranscriptMessage> {
    return this.track(this.appendNow(ref, message, init));
  }

  /** The whole transcript, or undefined when this client has none. Throws TranscriptFileError if unreadable. */
  async get(ref: TranscriptRef): Promise<Transcript | undefined> {
    const slot = await this.load(this.fileOf(ref));
    return slot.data ? structuredClone(slot.data) : undefined;
  }

  async list(profileId: string, kind?: TranscriptKind): Promise<TranscriptListing> {
    const dir = profileDir(this.root, profileId);
    const files = new Set<string>();
    try {
      for (const name of await readdir(dir)) {
        // An atomic write's temporary files end in a number, not ".json".
        if (name.endsWith('.json')) files.add(join(dir, name));
      }
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    // Appended but not yet written.
    for (const slot of this.slots.values()) {
      if (slot.data && dirname(slot.file) === dir) files.add(slot.file);
    }
    const summaries: TranscriptSummary[] = [];
    const unreadable: TranscriptFileError[] = [];
    const sorted = [...files].sort();
    // In batches: thousands of threads must not open thousands of files at once (EMFILE).
    for (let i = 0; i < sorted.length; i += LIST_READ_BATCH) {
      const batch = sorted.slice(i, i + LIST_READ_BATCH);
      for (const result of await Promise.allSettled(batch.map((file) => this.load(file)))) {
        if (result.status === 'rejected') {
          if (!(result.reason instanceof TranscriptFileError)) throw result.reason;
          unreadable.push(result.reason);
          continue;
        }
        const { data } = result.value;
        if (data && data.profileId === profileId && (!kind || data.kind === kind))
          summaries.push(summarise(data));
      }
    }
    summaries.sort(
      (a, b) => Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt) || compare(a.id, b.id),
    );
    return { summaries, unreadable };
  }

  /**
   * Deletes the transcript. Also the way out of an unreadable file: it is removed unread. Resolves
   * true when there was something to remove.
   */
  async remove(ref: TranscriptRef): Promise<boolean> {
    const file = this.fileOf(ref);
    const slot = this.slotFor(file);
    await slot.loading?.catch(() => undefined);
    const hadData = slot.data !== null;
    slot.data = null;
    slot.loaded = true;
    slot.dirty = false;
    // In the write chain, so a write already under way cannot land after the delete.
    let existed = false;
    const removal = slot.chain.then(async () => {
      try {
        await unlink(file);
        existed = true;
      } catch (error) {
        if (!isMissing(error)) throw new TranscriptFileError(file, 'could not be deleted', { cause: error });
      }
    });
    slot.chain = removal.catch(() => undefined);
    await removal;
    return hadData || existed;
  }

  /** Records what this client knows of the history. Resolves false when there is no such transcript. */
  markKnownFrom(ref: TranscriptRef, knownFrom: KnownFrom): Promise<boolean> {
    return this.track(
      (async () => {
        const value = KnownFrom.parse(knownFrom);
        const slot = await this.load(this.fileOf(ref));
        if (!slot.data) return false;
        if (slot.data.knownFrom !== value) {
          slot.data.knownFrom = value;
          this.markDirty(slot);
        }
        return true;
      })(),
    );
  }

  /**
   * Writes this transcript now (fsync'd) with everything appended to it so far; resolves once it is
   * on disk. On failure the user is told (onWriteError), the data stays in memory and is retried,
   * and this rejects.
   */
  async sync(ref: TranscriptRef): Promise<void> {
    await Promise.allSettled([...this.pending]);
    const slot = this.slots.get(this.fileOf(ref));
    if (!slot) return;
    await slot.chain;
    if (!slot.dirty) return;
    try {
      await this.write(slot);
    } catch (error) {
      this.reportWriteErrors(error);
      throw error;
    }
  }

  /** Writes everything appended so far. Rejects with the write errors, if any; the data stays dirty. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.pending]);
    // Let writes already under way finish first: one of them may fail and leave its slot dirty again.
    await Promise.all([...this.slots.values()].map((slot) => slot.chain));
    const dirty = [...this.slots.values()].filter((slot) => slot.dirty);
    const results = await Promise.allSettled(dirty.map((slot) => this.write(slot)));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length === 0) this.recovered();
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, `${failures.length} transcript files could not be written`);
  }

  private async appendNow(
    ref: TranscriptRef,
    input: TranscriptMessageInput,
    init: TranscriptInit | undefined,
  ): Promise<TranscriptMessage> {
    const file = this.fileOf(ref);
    // Redacted here, before it is kept in memory, so what is shown now is what a restart will show.
    const { at, content, requestId, error, ...rest } = input;
    const message = TranscriptMessage.parse({
      ...rest,
      at: at ?? this.nowIso(),
      content: redactSecrets(content),
      ...(requestId === undefined ? {} : { requestId: redactSecrets(requestId) }),
      ...(error === undefined ? {} : { error: redactSecrets(error) }),
    });
    const slot = await this.load(file);
    if (!slot.data) {
      if (!init) {
        throw new Error(
          `No transcript for ${ref.kind} ${JSON.stringify(ref.id)} yet: its first append must give the agent and knownFrom`,
        );
      }
      const createdAt = message.at;
      slot.data = {
        profileId: ref.profileId,
        kind: ref.kind,
        id: ref.id,
        agent: redactSecrets(init.agent),
        ...(init.title === undefined ? {} : { title: redactSecrets(init.title) }),
        knownFrom: KnownFrom.parse(init.knownFrom),
        createdAt,
        lastActivityAt: createdAt,
        messages: [],
      };
    } else if (init) {
      if (init.agent) slot.data.agent = redactSecrets(init.agent);
      if (init.title !== undefined) slot.data.title = redactSecrets(init.title);
    }
    slot.data.messages.push(message);
    if (Date.parse(message.at) > Date.parse(slot.data.lastActivityAt)) slot.data.lastActivityAt = message.at;
    this.markDirty(slot);
    return structuredClone(message);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const done = (): void => {
      this.pending.delete(work);
    };
    work.then(done, done);
    return work;
  }

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private slotFor(file: string): Slot {
    let slot = this.slots.get(file);
    if (!slot) {
      slot = { file, data: null, loaded: false, loading: undefined, dirty: false, chain: Promise.resolve() };
      this.slots.set(file, slot);
    }
    return slot;
  }

  /** Reads the file once; concurrent callers share the read. An unreadable file is re-read next time. */
  private async load(file: string): Promise<Slot> {
    const slot = this.slotFor(file);
    if (slot.loaded) return slot;
    if (!slot.loading) {
      slot.loading = this.read(slot).finally(() => {
        slot.loading = undefined;
      });
    }
    await slot.loading;
    return slot;
  }

  private async read(slot: Slot): Promise<void> {
    slot.data = await readTranscriptFile(this.root, slot.file);
    slot.loaded = true;
  }

  private markDirty(slot: Slot): void {
    slot.dirty = true;
    this.scheduleFlush(this.writeDelayMs);
  }

  private scheduleFlush(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.reportWriteErrors(error));
    }, delayMs);
  }

  /** Tells the user (once per run of failures) and tries again later, backing off to RETRY_MAX_MS. */
  private reportWriteErrors(error: unknown): void {
    if (!this.failing) {
      const errors = error instanceof AggregateError ? error.errors : [error];
      for (const e of errors) {
        if (e instanceof TranscriptFileError) this.onWriteError(e);
        else this.onWriteError(new TranscriptFileError(this.root, 'write failed', { cause: e }));
      }
    }
    this.failing = true;
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.flush().catch((e: unknown) => this.reportWriteErrors(e));
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.retryMs = RETRY_FIRST_MS;
    this.onWriteRecovered(this.root);
  }

  private write(slot: Slot): Promise<void> {
    const run = slot.chain.then(async () => {
      if (!slot.dirty || !slot.data) return;
      slot.dirty = false;
      // Serialised now: appends made while the write is under way mark the slot dirty for the next one.
      const text = transcriptText(slot.data);
      try {
        // Every folder below the one given is ours: made 0700, or checked to be a real folder of ours.
        await ensurePrivateDir(dirname(slot.file), dirname(this.root));
        await this.writeFile(slot.file, text);
      } catch (error) {
        slot.dirty = true;
        const why = describeWriteError(error);
        throw new TranscriptFileError(
          slot.file,
          `could not be written (${why}). It is kept in memory and written as soon as the folder is writable again.`,
          { cause: error },
        );
      }
    });
    slot.chain = run.catch(() => undefined);
    return run;
  }
}

function summarise(t: Transcript): TranscriptSummary {
  const last = t.messages.at(-1);
  // A session is titled by what the user first asked, a thread by its own title.
  const firstAsk = t.kind === 'session' ? t.messages.find((m) => m.role === 'user') : undefined;
  const title = t.title ?? firstAsk?.content.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS);
  return {
    profileId: t.profileId,
    kind: t.kind,
    id: t.id,
    agent: t.agent,
    ...(title ? { title } : {}),
    knownFrom: t.knownFrom,
    messageCount: t.messages.length,
    createdAt: t.createdAt,
    lastActivityAt: t.lastActivityAt,
    ...(last
      ? {
          lastMessage: {
            role: last.role,
            status: last.status,
            preview: last.content.slice(0, PREVIEW_CHARS),
          },
        }
      : {}),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
