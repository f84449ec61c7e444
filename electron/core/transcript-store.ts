// The local record of every message this client sent and received, per profile, by chat session id
// and by thread id. The API returns no message history (docs/decisions.md), so this store is the only
// history there is, and it says plainly how much of it it knows.
//
// On disk: one SQLite database, <folder>/history.sqlite (docs/architecture.md, "The history
// database"). Every change is committed and flushed to disk before the call that made it returns, so
// an exchange is on disk before it is shown as done, and the CLI and the app can write at once. A
// write that fails (a full or read-only disk) keeps the change in memory, tells the user, and is
// tried again until it lands; what is shown meanwhile includes it. Transcript files of earlier
// versions, under <folder>/transcripts, are imported once, on first use.
import { join, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Clock } from '../../shared/clock';
import { describeWriteError } from '../../shared/write-error';
import {
  KnownFrom,
  TranscriptKind,
  TranscriptMessage,
  type MessageRange,
  type Transcript,
  type TranscriptInit,
  type TranscriptMessageInput,
  type TranscriptRef,
  type TranscriptSummary,
} from '../../shared/transcript';
import { openHistoryDatabase, openSqliteFile, type OpenDatabase } from './history/database';
import { overlay, summarise } from './history/pending';
import {
  countTranscripts,
  cursorOf,
  readImportProblems,
  readKnown,
  rangeStart,
  readMessages,
  readSummaries,
  readTranscript,
} from './history/reads';
import {
  agentsOf,
  countScope,
  deleteScope,
  pruneHistory,
  type HistoryKeep,
  type HistoryScope,
} from './history/retention';
import { HistoryError } from './history/schema';
import { searchHistory, type HistorySearch, type SearchResults } from './history/search';
import { inTransaction } from './history/statements';
import { forgetImportProblem, importTranscriptFiles, type ImportLog } from './history/transcript-import';
import { applyChange, exists, type HistoryChange } from './history/writes';
import { redactSecrets } from './redact';
import { profileDir, TranscriptFileError, transcriptFile } from './transcript-file';
import { TranscriptReviews } from './transcript-reviews';

export * from '../../shared/transcript';
export { HistoryError } from './history/schema';

export interface TranscriptListing {
  /** Most recent activity first. */
  summaries: TranscriptSummary[];
  /** Transcript files of an earlier version that could not be imported; left as they are. */
  unreadable: TranscriptFileError[];
  /** Where the next page starts, when there may be one. */
  next?: string;
  /** How many there are in all. */
  total: number;
}

export interface ListPage {
  limit?: number | undefined;
  /** `next` of the page before. */
  cursor?: string | undefined;
}

export interface TranscriptStoreOptions {
  clock?: Pick<Clock, 'now'>;
  /** The database seam: tests wrap it to hold the connection (to fill the disk, for one). */
  openDatabase?: OpenDatabase;
  /** A write failed. The change stays in memory and is retried (and at `flush()`). */
  onWriteError?: (error: HistoryError) => void;
  /** Told when writes land again after a failure. */
  onWriteRecovered?: (file: string) => void;
  /** Where the one-time import of transcript files names each file. */
  log?: ImportLog;
}

/** How long after a failed write it is tried again, at first and at most. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export class TranscriptStore {
  /** The transcript files of earlier versions, imported once. */
  readonly root: string;
  /** The history database. */
  readonly file: string;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly openDatabase: OpenDatabase;
  private readonly onWriteError: (error: HistoryError) => void;
  private readonly onWriteRecovered: (file: string) => void;
  private readonly log: ImportLog;
  private database: DatabaseSync | undefined;
  /** Changes not yet in the database (a write failed), in the order they were made. */
  private queue: HistoryChange[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;
  private failing = false;
  /** Labels, verdicts and notes on what is recorded, in the same database. */
  readonly reviews: TranscriptReviews;

  constructor(folder: string, options: TranscriptStoreOptions = {}) {
    this.root = join(resolve(folder), 'transcripts');
    this.file = join(resolve(folder), 'history.sqlite');
    this.clock = options.clock ?? { now: () => Date.now() };
    this.openDatabase = options.openDatabase ?? openSqliteFile;
    this.onWriteError = options.onWriteError ?? ((error) => console.error(error.message, error.cause));
    this.onWriteRecovered = options.onWriteRecovered ?? (() => undefined);
    this.log = options.log ?? { info: () => undefined, warn: (line) => console.error(line) };
    this.reviews = new TranscriptReviews(() => this.db(), this.file, this.clock);
  }

  /**
   * Appends many messages in one transaction (a bulk import, the bench's generated history): each
   * as `append` would, and on disk when this resolves.
   */
  async appendAll(
    items: { ref: TranscriptRef; message: TranscriptMessageInput; init?: TranscriptInit }[],
  ): Promise<void> {
    const changes = items.map(({ ref, message, init }) => this.prepareAppend(ref, message, init));
    this.queue.push(...changes);
    this.drainOrReport();
  }

  /**
   * Adds a message (its content redacted of anything key-shaped) and resolves once it is on disk, or
   * kept in memory when the write failed. `init` is required when the transcript is new; on an
   * existing one it may update the agent and title (its `knownFrom` changes only via `markKnownFrom`).
   */
  async append(
    ref: TranscriptRef,
    input: TranscriptMessageInput,
    init?: TranscriptInit,
  ): Promise<TranscriptMessage> {
    const change = this.prepareAppend(ref, input, init);
    this.change(change);
    return structuredClone(change.message);
  }

  /** The whole transcript, or undefined when this client has none. */
  async get(ref: TranscriptRef): Promise<Transcript | undefined> {
    return overlay(readTranscript(this.db(), ref), this.queued(ref));
  }

  /**
   * A range of a transcript's messages from `from` (0 is the first), or its last `limit` when `from`
   * is undefined, with what the record is; undefined when there is none.
   */
  async messages(
    ref: TranscriptRef,
    from: number | undefined,
    limit: number,
  ): Promise<MessageRange | undefined> {
    if (this.queued(ref).length > 0) {
      const whole = await this.get(ref);
      if (!whole) return undefined;
      const { messages, ...head } = whole;
      const start = rangeStart(from, limit, messages.length);
      return { ...head, from: start, messages: messages.slice(start, start + limit), total: messages.length };
    }
    return readMessages(this.db(), ref, from, limit);
  }

  /** What a transcript is (its agent, title, what is known of it) without reading its messages. */
  async head(ref: TranscriptRef): Promise<Omit<MessageRange, 'from' | 'messages'> | undefined> {
    const range = await this.messages(ref, undefined, 0);
    if (!range) return undefined;
    const { from: _from, messages: _messages, ...head } = range;
    return head;
  }

  /** A profile's transcripts, newest activity first: all of them, or a page. */
  async list(profileId: string, kind?: TranscriptKind, page: ListPage = {}): Promise<TranscriptListing> {
    const db = this.db();
    const limit = page.limit ?? -1;
    let summaries = readSummaries(db, profileId, kind, limit, page.cursor);
    const waiting = this.queue.filter((c) => c.ref.profileId === profileId && (!kind || c.ref.kind === kind));
    if (waiting.length > 0) summaries = this.withQueued(summaries, waiting, limit);
    const unreadable = readImportProblems(db, profileDir(this.root, profileId)).map(
      ({ file, problem }) => new TranscriptFileError(file, problem.replace(`Transcript file ${file} `, '')),
    );
    const last = summaries.at(-1);
    return {
      summaries,
      unreadable,
      ...(last && summaries.length === limit ? { next: cursorOf(last) } : {}),
      total: countTranscripts(db, profileId, kind) + this.queuedNew(profileId, kind),
    };
  }

  /** Which of `ids` this client has a record of, and from where it knows each. */
  async known(profileId: string, kind: TranscriptKind, ids: string[]): Promise<Record<string, KnownFrom>> {
    const found = readKnown(this.db(), profileId, kind, ids);
    for (const id of new Set(ids)) {
      const ref = { profileId, kind, id };
      if (this.queued(ref).length === 0) continue;
      const view = await this.get(ref);
      if (view) found[id] = view.knownFrom;
      else delete found[id];
    }
    return found;
  }

  /** Full-text search over every recorded message and error (history/search.ts). */
  search(query: HistorySearch): SearchResults {
    return searchHistory(this.db(), query);
  }

  /** How many conversations and messages `scope` holds: what deleting it would lose. */
  async count(scope: HistoryScope): Promise<{ conversations: number; messages: number }> {
    this.drain();
    return countScope(this.db(), scope);
  }

  /** The agents a profile's history holds, with how many conversations each. */
  async agents(profileId: string): Promise<{ agent: string; conversations: number }[]> {
    return agentsOf(this.db(), profileId);
  }

  /** Deletes every conversation of `scope`, then gives the space back; resolves how many went. */
  async removeAll(scope: HistoryScope): Promise<number> {
    this.drain();
    return deleteScope(this.db(), scope);
  }

  /** Keeps the history within `keep` (history/retention.ts); resolves how many conversations went. */
  async prune(keep: HistoryKeep): Promise<number> {
    this.drain();
    return pruneHistory(this.db(), keep, this.clock.now());
  }

  /**
   * Deletes the transcript. Also the way past a transcript file that could not be imported: it is no
   * longer listed (the file stays where it is). Resolves true when there was something to remove.
   */
  async remove(ref: TranscriptRef): Promise<boolean> {
    checkRef(ref);
    const had = this.has(ref);
    this.change({ type: 'remove', ref });
    const unlisted = forgetImportProblem(this.db(), transcriptFile(this.root, ref));
    return had || unlisted;
  }

  /** Records what this client knows of the history. Resolves false when there is no such transcript. */
  async markKnownFrom(ref: TranscriptRef, knownFrom: KnownFrom): Promise<boolean> {
    const value = KnownFrom.parse(knownFrom);
    if (!this.has(ref)) return false;
    this.change({ type: 'knownFrom', ref, knownFrom: value });
    return true;
  }

  /**
   * Resolves once everything recorded for `ref` is on disk. After a failed write the user has been
   * told (onWriteError), the change stays in memory and is retried, and this rejects.
   */
  async sync(ref: TranscriptRef): Promise<void> {
    if (this.queued(ref).length > 0) this.drainOrReport();
  }

  /** Writes everything still in memory. Rejects with the write error, if any; the changes stay. */
  async flush(): Promise<void> {
    this.drain();
  }

  /** Writes what it can and lets the database go. */
  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    try {
      this.drain();
    } finally {
      this.database?.close();
      this.database = undefined;
    }
  }

  /** The change an append makes: checked, and redacted before it is kept anywhere. */
  private prepareAppend(
    ref: TranscriptRef,
    input: TranscriptMessageInput,
    init: TranscriptInit | undefined,
  ): HistoryChange & { type: 'append' } {
    checkRef(ref);
    // Redacted here, before it is kept anywhere, so what is shown now is what a restart will show.
    const { at, content, requestId, error, ...rest } = input;
    const message = TranscriptMessage.parse({
      ...rest,
      at: at ?? new Date(this.clock.now()).toISOString(),
      content: redactSecrets(content),
      ...(requestId === undefined ? {} : { requestId: redactSecrets(requestId) }),
      ...(error === undefined ? {} : { error: redactSecrets(error) }),
    });
    const maskedInit = init && {
      agent: redactSecrets(init.agent),
      knownFrom: KnownFrom.parse(init.knownFrom),
      ...(init.title === undefined ? {} : { title: redactSecrets(init.title) }),
    };
    if (!maskedInit && !this.has(ref)) {
      throw new Error(
        `No transcript for ${ref.kind} ${JSON.stringify(ref.id)} yet: its first append must give the agent and knownFrom`,
      );
    }
    return { type: 'append', ref, message, init: maskedInit };
  }

  /** The database, opened (and the transcript files imported) on first use. */
  private db(): DatabaseSync {
    if (!this.database) {
      const db = openHistoryDatabase(this.file, this.openDatabase);
      try {
        importTranscriptFiles(db, this.root, this.log);
      } catch (error) {
        db.close();
        throw error;
      }
      this.database = db;
    }
    return this.database;
  }

  private has(ref: TranscriptRef): boolean {
    const queued = this.queued(ref);
    for (let i = queued.length - 1; i >= 0; i--) {
      const change = queued[i] as HistoryChange;
      if (change.type === 'remove') return false;
      if (change.type === 'append') return true;
    }
    try {
      return exists(this.db(), ref);
    } catch (error) {
      // A database that cannot be opened now: what is in memory is what there is.
      if (error instanceof HistoryError) return false;
      throw error;
    }
  }

  /** Transcripts made while writes fail: not in the database's count yet. */
  private queuedNew(profileId: string, kind: TranscriptKind | undefined): number {
    const fresh = new Set<string>();
    for (const c of this.queue) {
      if (c.ref.profileId !== profileId || (kind && c.ref.kind !== kind) || c.type !== 'append' || !c.init)
        continue;
      if (!exists(this.db(), c.ref)) fresh.add(`${c.ref.kind}\0${c.ref.id}`);
    }
    return fresh.size;
  }

  private queued(ref: TranscriptRef): HistoryChange[] {
    return this.queue.filter((c) => sameRef(c.ref, ref));
  }

  private withQueued(
    stored: TranscriptSummary[],
    waiting: HistoryChange[],
    limit: number,
  ): TranscriptSummary[] {
    const refs = new Map(waiting.map((c) => [`${c.ref.kind}\0${c.ref.id}`, c.ref]));
    const kept = stored.filter((s) => !refs.has(`${s.kind}\0${s.id}`));
    for (const ref of refs.values()) {
      const view = overlay(readTranscript(this.db(), ref), this.queued(ref));
      if (view) kept.push(summarise(view));
    }
    kept.sort(
      (a, b) => Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt) || (a.id < b.id ? -1 : 1),
    );
    return limit < 0 ? kept : kept.slice(0, limit);
  }

  private change(change: HistoryChange): void {
    this.queue.push(change);
    try {
      this.drainOrReport();
    } catch {
      // Told to the user and retried; the change is kept in memory meanwhile.
    }
  }

  private drainOrReport(): void {
    try {
      this.drain();
    } catch (error) {
      this.reportWriteError(error as HistoryError);
      throw error;
    }
  }

  /** Writes the queue in one transaction; on failure everything stays queued. */
  private drain(): void {
    if (this.queue.length === 0) return;
    const changes = this.queue;
    try {
      const db = this.db();
      inTransaction(db, () => {
        for (const change of changes) applyChange(db, change);
      });
    } catch (error) {
      // One that says what it is (a newer version's database) is passed on in its own words.
      if (error instanceof HistoryError) throw error;
      throw new HistoryError(
        this.file,
        `The history database ${this.file} could not be written (${describeWriteError(error)}). ` +
          'What was recorded is kept in memory and written as soon as the disk allows.',
        { cause: error },
      );
    }
    this.queue = this.queue.slice(changes.length);
    this.recovered();
  }

  /** Tells the user (once per run of failures) and tries again later, backing off to RETRY_MAX_MS. */
  private reportWriteError(error: HistoryError): void {
    if (!this.failing) this.onWriteError(error);
    this.failing = true;
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      try {
        this.drain();
      } catch (e) {
        this.reportWriteError(e as HistoryError);
      }
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.retryMs = RETRY_FIRST_MS;
    this.onWriteRecovered(this.file);
  }
}

function checkRef(ref: TranscriptRef): void {
  TranscriptKind.parse(ref.kind);
  if (!ref.profileId || !ref.id) throw new TypeError('A transcript needs a profile id and an id');
}

function sameRef(a: TranscriptRef, b: TranscriptRef): boolean {
  return a.profileId === b.profileId && a.kind === b.kind && a.id === b.id;
}
