// "Save as test case" asked from a history search hit: the conversation or thread it opens shows
// the save dialog at once, once.
import { create } from 'zustand';
import type { TranscriptKind } from '../../shared/transcript';

export const useSaveCaseIntent = create<{ wanted: { kind: TranscriptKind; id: string } | undefined }>(() => ({
  wanted: undefined,
}));

/** Whether this record was asked to be saved; the ask is taken (cleared) as it is read. */
export function takeSaveCaseIntent(kind: TranscriptKind, id: string): boolean {
  const wanted = useSaveCaseIntent.getState().wanted;
  if (wanted?.kind !== kind || wanted.id !== id) return false;
  useSaveCaseIntent.setState({ wanted: undefined });
  return true;
}
