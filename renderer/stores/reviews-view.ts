// The Reviews screen's view: what the queue goes through and shows, and which item is open, kept
// while the user visits other screens.
import { create } from 'zustand';
import type { QueueState, QueueTarget, Verdict } from '../../shared/review';

export interface ReviewsView {
  target: QueueTarget;
  state: QueueState;
  label: string;
  verdict: Verdict | '';
  agent: string;
  /** The open item's place in the list. */
  selected: number;
}

export const useReviewsView = create<ReviewsView>(() => ({
  target: 'replies',
  state: 'unreviewed',
  label: '',
  verdict: '',
  agent: '',
  selected: 0,
}));
