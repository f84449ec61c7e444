// `core.transcripts.reviews`: what support staff say about the recorded history — the team's labels,
// and a review (verdict, labels, note) of a conversation, a thread or one of its messages — kept in
// the history database beside what they are about (docs/architecture.md, "Reviews"). The bridge,
// the CLI and "Save as test case" all call it. A save is committed and flushed before it returns; a
// failed one changes nothing and says so.
import type { DatabaseSync } from 'node:sqlite';
import type { Clock } from '../../shared/clock';
import type {
  QueuePage,
  RecordReviews,
  Review,
  ReviewInput,
  ReviewLabel,
  ReviewTarget,
} from '../../shared/review';
import type { TranscriptRef } from '../../shared/transcript';
import { describeWriteError } from '../../shared/write-error';
import { CoreError } from './core-error';
import { exportedReviews, reviewsCsv, reviewsJson, type ReviewExportQuery } from './history/review-export';
import { reviewQueue, type QueueQuery } from './history/review-queue';
import {
  readLabels,
  readRecordReviews,
  removeLabel,
  removeReview,
  saveLabel,
  saveReview,
} from './history/reviews';
import { HistoryError } from './history/schema';

export type { ReviewExportQuery } from './history/review-export';
export type { QueueQuery } from './history/review-queue';

export class TranscriptReviews {
  constructor(
    private readonly db: () => DatabaseSync,
    private readonly file: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** The team's labels, by name, with how many reviews carry each. */
  labels(): ReviewLabel[] {
    return readLabels(this.db());
  }

  /** Adds a label, or renames and recolours one; returns the list. */
  saveLabel(input: { id?: number | undefined; name: string; colour: string }): ReviewLabel[] {
    return this.write(() => saveLabel(this.db(), input));
  }

  /** Deletes a label from the list and from every review; says how many reviews carried it. */
  removeLabel(id: number): { removed: boolean; reviews: number } {
    return this.write(() => removeLabel(this.db(), id));
  }

  /** The reviews of one record: its own, and its messages' keyed by index. */
  of(ref: TranscriptRef): RecordReviews {
    return readRecordReviews(this.db(), ref);
  }

  /**
   * The reviews of one record's messages, keyed by the message's index (0 is the first): what
   * "Save as test case" takes, so a reply marked wrong with the right answer in its note becomes
   * that step's expected answer.
   */
  byMessage(ref: TranscriptRef): Record<number, Review> {
    return this.of(ref).messages;
  }

  /** Saves a review (its note masked of keys); an empty one removes the review. */
  save(profileId: string, input: ReviewInput): Review | undefined {
    return this.write(() => saveReview(this.db(), profileId, input, new Date(this.clock.now())));
  }

  remove(profileId: string, target: ReviewTarget): boolean {
    return this.write(() => removeReview(this.db(), profileId, target));
  }

  queue(query: QueueQuery): QueuePage {
    return reviewQueue(this.db(), query);
  }

  /** The reviews as a file's text, newest first, and how many it holds. */
  export(query: ReviewExportQuery, format: 'csv' | 'json'): { text: string; count: number } {
    const rows = exportedReviews(this.db(), query);
    const text =
      format === 'csv' ? reviewsCsv(rows) : reviewsJson(rows, new Date(this.clock.now()).toISOString());
    return { text, count: rows.length };
  }

  /** A write that failed for the disk's sake is said in words; nothing of it was kept. */
  private write<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof CoreError) throw error;
      throw new HistoryError(
        this.file,
        `The review could not be saved in ${this.file} (${describeWriteError(error)}). Nothing was changed.`,
        { cause: error },
      );
    }
  }
}
