// Full-text search over every recorded message and error (docs/architecture.md, "The history
// database"). What the user types is never handed to FTS5 as syntax: it is read as words, "quoted
// phrases" and word* prefixes, and each becomes a quoted FTS5 string, so a stray quote, star,
// bracket or NEAR( is searched for as text (or dropped), never an error. Snippets come back as
// parts marked matched or not, for the screen to render as elements. Hits come most recently
// recorded first, in the index's own order: the search stops at the page's last hit instead of
// ranking every match (and making a snippet for each), so a word in every message costs no more.
import type { DatabaseSync } from 'node:sqlite';
import type { MessageStatus, SearchHit, SnippetPart, TranscriptKind } from '../../../shared/transcript';
import { recordOf } from './reads';
import { LABELLED_SQL, REVIEWED_SQL } from './reviews';
import { statement } from './statements';
import { shownText as shown, storedText as stored } from './stored-text';

export interface HistorySearch {
  text: string;
  profileId?: string | undefined;
  agent?: string | undefined;
  /** ISO times: messages at or after `since`, at or before `until`. */
  since?: string | undefined;
  until?: string | undefined;
  /** Only messages that failed or carry an error. */
  hasError?: boolean | undefined;
  /** Only messages reviewed (true) or not (false), themselves or as part of their record. */
  reviewed?: boolean | undefined;
  /** Only messages whose review, or whose record's, carries this label. */
  label?: string | undefined;
  limit?: number | undefined;
}

export interface SearchResults {
  hits: SearchHit[];
  /** More messages matched than `limit`. */
  more: boolean;
}

const DEFAULT_LIMIT = 50;
/** Marks around a match in FTS5's snippet: control characters no recorded text is searched for. */
const OPEN = '\u0002';
const CLOSE = '\u0003';

/** The user's words as an FTS5 query of quoted strings, undefined when nothing is left to search. */
export function ftsQuery(text: string): string | undefined {
  const terms: string[] = [];
  // A quoted phrase (an unclosed quote runs to the end) is one term; outside quotes each word is.
  for (const [whole, phrase, word] of text.matchAll(/"([^"]*)"?|([^\s"]+)/g)) {
    const tokens = (phrase ?? word ?? whole).match(/[\p{L}\p{N}\p{Co}]+/gu);
    if (!tokens) continue;
    if (phrase !== undefined) terms.push(`"${tokens.join(' ')}"`);
    else terms.push(...tokens.map((token) => `"${token}"`));
    // A star at the end of a word asks for words that begin with its last part.
    if (word?.endsWith('*')) terms[terms.length - 1] += '*';
  }
  return terms.length > 0 ? terms.join(' ') : undefined;
}

function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const [i, piece] of snippet.split(OPEN).entries()) {
    const close = piece.indexOf(CLOSE);
    const [match, after] =
      i === 0 || close < 0 ? ['', piece] : [piece.slice(0, close), piece.slice(close + 1)];
    if (match) parts.push({ text: match, match: true });
    if (after) parts.push({ text: after, match: false });
  }
  return parts;
}

interface HitRow {
  profile_id: string;
  kind: TranscriptKind;
  id: string;
  agent: string;
  title: string | null;
  first_ask: string | null;
  seq: number;
  role: SearchHit['role'];
  at: string;
  status: MessageStatus;
  snippet: string;
}

export function searchHistory(db: DatabaseSync, search: HistorySearch): SearchResults {
  const match = ftsQuery(search.text);
  if (!match) return { hits: [], more: false };
  const limit = search.limit ?? DEFAULT_LIMIT;
  const where: string[] = ['message_text MATCH ?'];
  const params: (string | number)[] = [match];
  const filter = (clause: string, value: string | number): void => {
    where.push(clause);
    params.push(value);
  };
  if (search.profileId !== undefined) filter('t.profile_id = ?', stored(search.profileId));
  if (search.agent !== undefined) filter('t.agent = ?', stored(search.agent));
  if (search.since !== undefined) filter('m.at_ms >= ?', Date.parse(search.since));
  if (search.until !== undefined) filter('m.at_ms <= ?', Date.parse(search.until));
  if (search.hasError) where.push("(m.error IS NOT NULL OR m.status = 'failed')");
  if (search.reviewed !== undefined) where.push(`${search.reviewed ? '' : 'NOT '}${REVIEWED_SQL('m')}`);
  if (search.label !== undefined) filter(LABELLED_SQL('m'), stored(search.label));
  const rows = statement(
    db,
    `SELECT t.profile_id, t.kind, t.id, t.agent, t.title, t.first_ask, m.seq, m.role, m.at, m.status,
       snippet(message_text, -1, ?, ?, '…', 16) AS snippet
     FROM message_text JOIN messages m ON m.rowid = message_text.rowid
       JOIN transcripts t ON t.rowid = m.transcript
     WHERE ${where.join(' AND ')}
     ORDER BY message_text.rowid DESC LIMIT ?`,
  ).all(OPEN, CLOSE, ...params, limit + 1) as unknown as HitRow[];
  const hits = rows.slice(0, limit).map((row): SearchHit => ({
    ...recordOf(row),
    index: row.seq,
    role: row.role,
    at: row.at,
    status: row.status,
    snippet: snippetParts(row.snippet).map((part) => ({ ...part, text: shown(part.text) })),
  }));
  return { hits, more: rows.length > limit };
}
