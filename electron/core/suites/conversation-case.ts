// "Save as test case" from a recorded conversation or thread (README, "The Tests screen"): the
// user's messages become the steps of one case, in the same kind of exchange (a session, or a
// thread), each with assertions suggested from what the recorded reply said, `remembers` where a
// later reply repeats a fact an earlier message gave, and — where a person reviewed a reply as
// wrong and wrote the right answer in the note — that answer as the step's expectation.
import type { SuiteAssertion } from '../../../shared/suite';
import type { Transcript, TranscriptRef } from '../../../shared/transcript';
import { CoreError } from '../core-error';
import { appendCase, caseName, refuseSecrets, suggestPhrase, type SuiteContext } from './save-case';

/** A person's review of one reply, as the history keeps it (a review may carry only labels or a note). */
interface ReplyReview {
  verdict?: 'good' | 'needs-work' | 'wrong' | undefined;
  note: string;
}

/**
 * Reviews of a transcript's replies, keyed by message id: the message's place in its transcript
 * (0 for the first), as a search hit names it.
 */
export type ReplyReviews = Readonly<Record<string, ReplyReview>>;

/** "Save as test case" of a recorded conversation or thread into a suite file of the open folder. */
export interface ConversationCaseRequest {
  file: string;
  transcript: TranscriptRef;
  /** The replies' reviews; without them, those the history keeps for this transcript. */
  reviews?: ReplyReviews | undefined;
}

interface RecordedTurn {
  message: string;
  reply: string;
  replyId: string;
}

/** A correction in a review's note: the text after "Correct:", "Expected:" or "Should say:". */
const CORRECTION = /(?:^|\n)\s*(?:correct(?:ion)?|expected|should (?:say|be))\s*:\s*([\s\S]+)/i;

function correctionIn(review: ReplyReview | undefined): string | undefined {
  if (review?.verdict !== 'wrong') return undefined;
  const found = CORRECTION.exec(review.note)?.[1]?.trim();
  return found ? found : undefined;
}

/** Each user message with the whole reply that followed it; a failed or cut exchange pins nothing. */
function recordedTurns(transcript: Transcript): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  transcript.messages.forEach((m, i) => {
    const next = transcript.messages[i + 1];
    if (m.role === 'user' && next?.role === 'agent' && next.status === 'complete') {
      turns.push({ message: m.content, reply: next.content, replyId: String(i + 1) });
    }
  });
  return turns;
}

/**
 * Facts a message gives that a reply can repeat: numbers of two or more digits, and capitalised
 * words that do not begin a sentence (a name, a product), so "Hello" or "I" are not facts.
 */
export function factsIn(text: string): string[] {
  const facts = new Set<string>();
  for (const m of text.matchAll(/\b\d{2,}\b/g)) facts.add(m[0]);
  for (const m of text.matchAll(/(?<![.!?]\s|^)(?<=\s)\p{Lu}[\p{L}\p{N}-]+/gu)) facts.add(m[0]);
  return [...facts];
}

function hasWord(text: string, word: string): boolean {
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'u',
  ).test(text);
}

/** The case's steps: messages and suggested assertions (README, "The Tests screen"). */
function conversationSteps(
  transcript: Transcript,
  reviews: ReplyReviews,
  suite: SuiteContext,
): { message: string; assert?: SuiteAssertion[] }[] {
  const turns = recordedTurns(transcript);
  if (turns.length === 0) {
    throw new CoreError(
      'BAD_INPUT',
      'This history has no message with a whole reply recorded here, so there is nothing to make a test of.',
    );
  }
  const remembered = new Set<string>();
  return turns.map((turn, i) => {
    const assert: SuiteAssertion[] = [];
    const review = reviews[turn.replyId];
    const correction = correctionIn(review);
    if (correction !== undefined) {
      assert.push(suite.graded ? { 'similar-to': { text: correction } } : { contains: correction });
    } else if (review?.verdict !== 'wrong') {
      // A reply reviewed as wrong, with no right answer given, is no behaviour to pin.
      const phrase = suggestPhrase(turn.reply);
      if (phrase) assert.push({ contains: phrase });
    }
    for (const fact of turns.slice(0, i).flatMap((t) => factsIn(t.message))) {
      if (remembered.has(fact) || !hasWord(turn.reply, fact)) continue;
      remembered.add(fact);
      assert.push({ remembers: fact });
    }
    return { message: turn.message, ...(assert.length > 0 ? { assert } : {}) };
  });
}

/** Appends the conversation's case to the suite file at `path` (created when missing). */
export async function saveConversationCase(
  path: string,
  transcript: Transcript,
  reviews: ReplyReviews = {},
): Promise<{ caseName: string; text: string }> {
  const first = transcript.messages.find((m) => m.role === 'user')?.content ?? '';
  const name = caseName(transcript.title ?? first);
  refuseSecrets([
    ['case name', name],
    ['agent', transcript.agent],
    ...transcript.messages.map((m) => [m.role === 'user' ? 'message' : 'reply', m.content] as const),
    ...Object.values(reviews).map((r) => ['review note', r.note] as const),
  ]);
  if (transcript.messages.some((m) => m.content.includes('***…'))) {
    // The history keeps keys masked; a mask in a suite file would be an expectation no reply meets.
    throw new CoreError(
      'HOLDS_SECRET',
      'This history holds a masked API key; it was not saved to the suite file (remove the key from the conversation first).',
    );
  }
  const thread = transcript.kind === 'thread';
  const agent = transcript.agent || undefined;
  const text = await appendCase(
    path,
    (suite) => ({
      name,
      ...(thread ? { thread: true, ...(transcript.title ? { title: transcript.title } : {}) } : {}),
      steps: conversationSteps(transcript, reviews, suite),
    }),
    { agent, suiteName: 'Saved from conversations' },
  );
  return { caseName: name, text };
}
