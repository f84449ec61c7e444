// What the review form and the labels manager change (reviews:*). Every change marks every review
// query stale: a review moves a label's count, the queue's progress and the record's chips at once.
import type { BridgeInput } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useChange } from './change';
import { queryKeys } from './query-keys';

const reviewsChanged = [queryKeys.reviews.root()];

export const useSaveLabel = () =>
  useChange((input: BridgeInput<'reviews:saveLabel'>) => bridge.reviews.saveLabel(input), reviewsChanged);

export const useRemoveLabel = () =>
  useChange((id: number) => bridge.reviews.removeLabel({ id }), reviewsChanged);

export const useSaveReview = () =>
  useChange((input: BridgeInput<'reviews:save'>) => bridge.reviews.save(input), reviewsChanged);
