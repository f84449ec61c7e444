// What an id typed into "Open by id" most likely names, so the cheapest lookup runs first. Only a
// hint: every kind is still tried in turn, because the spec fixes no id formats (only the mock's).

export type IdKind = 'thread' | 'agent' | 'conversation';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order in which to look the id up. Conversations last: finding one may take many pages. */
export function lookupOrder(id: string): IdKind[] {
  const text = id.trim();
  if (/^thr_/i.test(text)) return ['thread', 'agent', 'conversation'];
  if (UUID.test(text)) return ['agent', 'thread', 'conversation'];
  if (/^conv_/i.test(text)) return ['conversation', 'thread', 'agent'];
  return ['agent', 'thread', 'conversation'];
}
