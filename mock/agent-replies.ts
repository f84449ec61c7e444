// What each seeded behaviour says. Replies are deterministic for a given message and history,
// so tests can assert them.
import { customerReply } from './customer';
import { graderReply } from './grader';
import { replayChunks, replayText } from './replay';
import type { AgentRecord, Message } from './state';

const ORDER_NUMBER = /\d{3,}/;

const STORY_WORDS = (
  'the service answered in small steady pieces while the console counted every chunk and measured ' +
  'the gaps between them so that a developer could see exactly when the first word arrived and how ' +
  'the rest followed résumé naïve café 🚀 ✨ 数据 流 which keeps multi byte characters in every reply'
).split(' ');

/** Each story word as a chunk carries it (with its space): one string per word, not one per chunk. */
const STORY_PIECES = STORY_WORDS.map((word) => `${word} `);

/** The storyteller's chunks for `message`: words (with their spaces), the last ending the sentence. */
function storyChunks(agent: AgentRecord, message: string): string[] {
  // Reduced first, so the index arithmetic stays in small integers (the hash is a 32-bit unsigned).
  const start = hash(message) % STORY_WORDS.length;
  const per = agent.tuning.wordsPerChunk ?? 1;
  const count = agent.tuning.chunkCount * per;
  if (count === 0) return ['.'];
  // Every seventh word, wrapping: (start + i * 7) % n, kept as a running index (no division a word).
  const n = STORY_PIECES.length;
  const words = new Array<string>(count);
  let at = start % n;
  for (let i = 0; i < count; i++) {
    words[i] = STORY_PIECES[at] as string;
    at += 7;
    if (at >= n) at -= n;
  }
  words[count - 1] = `${STORY_WORDS[(start + (count - 1) * 7) % STORY_WORDS.length] as string}.`;
  if (per === 1) return words;
  const chunks: string[] = [];
  for (let i = 0; i < count; i += per) chunks.push(words.slice(i, i + per).join(''));
  return chunks;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The helpdesk's refund desk (README, "What it serves"), so a simulated customer reaches its goal
 * in a known number of turns. Read from the user's messages (the mock keeps no replies): once one
 * mentions a refund, the reply ends with "Which order number is it?" while no message has given an
 * order number (three or more digits); "Let me check order N." on the message that makes both
 * known; "Refund issued for order N." on any message after it.
 */
function refundStep(message: string, history: readonly Message[]): string {
  const earlier = history.filter((m) => m.role === 'user').map((m) => m.content);
  const known = (said: readonly string[]) => ({
    refund: said.some((m) => /refund/i.test(m)),
    order: said.map((m) => ORDER_NUMBER.exec(m)?.[0]).find((n) => n !== undefined),
  });
  const now = known([...earlier, message]);
  if (!now.refund) return '';
  if (now.order === undefined) return ' Which order number is it?';
  const before = known(earlier);
  return before.refund && before.order !== undefined
    ? ` Refund issued for order ${now.order}.`
    : ` Let me check order ${now.order}.`;
}

/** The full reply text of `agent` to `message`, given the earlier messages of the session or thread. */
export function composeReply(agent: AgentRecord, message: string, history: readonly Message[]): string {
  if (agent.replay) return replayText(agent.replay);
  const earlierUser = history.filter((m) => m.role === 'user');
  switch (agent.tuning.behaviour) {
    case 'echo':
      return `Echo: ${message}`;
    case 'story':
      return storyChunks(agent, message).join('');
    case 'slow':
      return `After careful thought about "${message}": yes. Thanks for waiting.`;
    case 'glitch':
      return `Starting on "${message}" and then something will go wrong before the end of this reply.`;
    case 'helpdesk': {
      const turn = earlierUser.length + 1;
      const previous = earlierUser.at(-1);
      const memory = previous ? ` Earlier you asked: "${previous.content}".` : '';
      return `Thanks for your message (#${turn} in this conversation).${memory} You wrote: "${message}".${refundStep(message, history)}`;
    }
    case 'grader':
      return graderReply(message);
    case 'customer':
      return customerReply(message);
  }
}

/**
 * Splits a reply into stream chunks: `wordsPerChunk` words (default one) each for `story` (so
 * chunkCount × wordsPerChunk words give chunkCount chunks), otherwise pieces of up to 12 code
 * points (never splitting a character).
 */
export function splitIntoChunks(agent: AgentRecord, reply: string): string[] {
  if (agent.replay) return replayChunks(agent.replay);
  if (agent.tuning.behaviour === 'story') {
    const words = reply.split(/(?<= )/);
    const per = agent.tuning.wordsPerChunk ?? 1;
    if (per === 1) return words;
    const chunks: string[] = [];
    for (let i = 0; i < words.length; i += per) chunks.push(words.slice(i, i + per).join(''));
    return chunks;
  }
  const points = Array.from(reply);
  const chunks: string[] = [];
  for (let i = 0; i < points.length; i += 12) chunks.push(points.slice(i, i + 12).join(''));
  return chunks.length > 0 ? chunks : [''];
}

/**
 * The reply of `agent` to `message` as its stream chunks: `splitIntoChunks(agent, composeReply(…))`,
 * made directly for the storyteller, whose replies are the long ones.
 */
export function composeChunks(agent: AgentRecord, message: string, history: readonly Message[]): string[] {
  if (!agent.replay && agent.tuning.behaviour === 'story') return storyChunks(agent, message);
  return splitIntoChunks(agent, composeReply(agent, message, history));
}

/** A rough token count: one token per four UTF-8 bytes, at least one. */
export function estimateTokens(...texts: string[]): number {
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0);
  return Math.max(1, Math.ceil(bytes / 4));
}
