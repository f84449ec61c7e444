// The disk side of a bounded history (the health history, a monitor's synthetic checks): a
// JSON-lines journal with one header line, then one line per entry. An entry appends one line (one
// small write, not the whole history every minute). When the file holds more than capacity +
// capacity/8 lines, the ring is rewritten whole and atomically, so the file never exceeds
// about 1.125 × capacity lines and a crash mid-rewrite leaves the old file intact. A line torn by a
// crash mid-append is skipped on load, and the next write is a full rewrite. A file in another
// format is never overwritten: it is set aside and a warning says where. A link in the file's place
// is neither read nor written through: the first write replaces it (private-files.ts).
import { renameSync } from 'node:fs';
import type { z } from 'zod';
import { appendPrivateFile, isLinkRefusal, replacePrivateFile } from './private-files';
import { readPrivateLinesSync } from './private-lines';

export interface RingJournalOptions<T, L> {
  file: string;
  /** The header's `kind`, e.g. `agent-console/health-history`. */
  kind: string;
  /** What the user reads in warnings: "health history". */
  what: string;
  capacity: number;
  line: z.ZodType<L>;
  toLine: (entry: T) => L;
  fromLine: (line: L) => T;
  /** Every entry the ring holds, oldest first: what a rewrite writes. */
  entries: () => T[];
  /** Disk failures: the history carries on in memory and the next write rewrites the file. */
  onWriteError?: (error: Error) => void;
}

export class RingJournal<T, L> {
  /** Lines the file holds (header excluded) once pending writes are done. */
  linesInFile = 0;
  private readonly header: string;
  private readonly slack: number;
  private pending: string[] = [];
  private rewriteNext = true;
  private writing: Promise<void> | undefined;

  constructor(private readonly options: RingJournalOptions<T, L>) {
    this.header = JSON.stringify({ kind: options.kind, v: 1 });
    this.slack = Math.max(16, Math.ceil(options.capacity / 8));
  }

  /** Reads the file, handing each entry to `put`; returns a warning when it had to be set aside. */
  load(put: (entry: T) => void, held: () => number): string | undefined {
    const { file, what } = this.options;
    let lineNo = 0;
    let stored = 0;
    let known = true;
    let read: { endsWithNewline: boolean };
    try {
      // A line at a time: a week of entries is never one string in memory (private-lines.ts).
      read = readPrivateLinesSync(file, (raw) => {
        if (lineNo++ === 0) known = raw === this.header;
        if (!known || lineNo === 1 || raw === '') return;
        stored++;
        try {
          const parsed = this.options.line.safeParse(JSON.parse(raw));
          if (parsed.success) put(this.options.fromLine(parsed.data));
        } catch {
          // A line torn by a crash mid-append: skipped; the rewrite below drops it from the file.
        }
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (isLinkRefusal(error)) {
        return `The ${what} at ${file} is a symbolic link, which the console neither reads nor writes through; a file of its own takes its place from now on.`;
      }
      return `The ${what} could not be read (${(error as Error).message}); a new one is kept from now on.`;
    }
    if (!known || lineNo === 0) {
      const aside = `${file}.unreadable-${Date.now()}`;
      try {
        renameSync(file, aside);
      } catch {
        return `The ${what} at ${file} is not in a known format and could not be moved aside.`;
      }
      return `The ${what} was not in a known format; it was set aside as ${aside}.`;
    }
    this.linesInFile = stored;
    // A clean file ends in a newline; anything else gets rewritten before the next append.
    this.rewriteNext = !read.endsWithNewline || stored !== held();
    return undefined;
  }

  /** Queues the entry's line for the disk (the caller has already put it in its ring). */
  append(entry: T): void {
    let line: string;
    try {
      line = JSON.stringify(this.options.toLine(entry));
    } catch (error) {
      // An entry that cannot be written (a cycle, a value nested past the stack) is kept in memory
      // only, and said; the journal and the loop that feeds it go on.
      this.options.onWriteError?.(error as Error);
      return;
    }
    this.pending.push(`${line}\n`);
    this.writing ??= this.drain().finally(() => (this.writing = undefined));
  }

  /** Resolves once every queued line is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    const { file, capacity } = this.options;
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      try {
        if (this.rewriteNext || this.linesInFile + lines.length > capacity + this.slack) {
          // The ring already holds every pending entry, so a rewrite covers them too.
          const body = this.options.entries().map((e) => `${JSON.stringify(this.options.toLine(e))}\n`);
          this.pending = [];
          await replacePrivateFile(file, `${this.header}\n${body.join('')}`);
          this.linesInFile = body.length;
          this.rewriteNext = false;
        } else {
          await appendPrivateFile(file, lines.join(''));
          this.linesInFile += lines.length;
        }
      } catch (error) {
        this.rewriteNext = true;
        this.options.onWriteError?.(error as Error);
      }
    }
  }
}
