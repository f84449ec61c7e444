// The message a history search opened: its conversation's or thread's screen scrolls it into view
// and marks it, once, when it shows.
import { create } from 'zustand';
import type { TranscriptKind } from '../../shared/transcript';

export interface FoundMessage {
  kind: TranscriptKind;
  id: string;
  /** The message's place in its record, 0 for the first. */
  index: number;
}

export const useFoundMessage = create<{ found: FoundMessage | undefined }>(() => ({ found: undefined }));

/** The index of the found message when it belongs to this record, else undefined. */
export function useFoundIndex(kind: TranscriptKind, id: string | undefined): number | undefined {
  return useFoundMessage((s) =>
    s.found && s.found.kind === kind && s.found.id === id ? s.found.index : undefined,
  );
}
