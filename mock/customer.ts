// The seeded `customer` agent: a deterministic simulated user, so suites that simulate
// conversations can be tested exactly. Its rules (README, "What it serves"):
//
// - It reads the text between <goal>…</goal> and <conversation>…</conversation> of its message (the
//   default simulate prompt has both; without a goal the whole message is the goal). The persona
//   is not read: a real model plays it, this one follows the rules below.
// - Its order number is the first run of three or more digits in the goal.
// - Turn 1 (the conversation holds no agent reply yet): "Hello. <goal>", then "My order number is
//   <number>." when the goal has one.
// - Later turns answer the agent's last reply: one that says "issued" or "resolved" (any case) gets
//   the closing "Thank you, that is all I needed."; one that asks for the order number ("order
//   number" in a sentence ending in "?") gets "It is order <number>." (or "I do not have an order number."); anything
//   else gets the follow-up "Any news on my request?".

const ORDER_NUMBER = /\d{3,}/;
const AGENT_TURN = /^Turn \d+ agent: /m;
/** A question about the order number: a sentence with "order number" that ends in "?". */
const ASKS_ORDER_NUMBER = /[^.!?"]*order number[^.!?"]*\?/i;

const CUSTOMER_CLOSING = 'Thank you, that is all I needed.';

function between(text: string, tag: string): string | undefined {
  const open = text.indexOf(`<${tag}>`);
  const close = text.lastIndexOf(`</${tag}>`);
  return open >= 0 && close > open ? text.slice(open + tag.length + 2, close).trim() : undefined;
}

/** The agent's last reply in a transcript of "Turn N user: …" / "Turn N agent: …" lines. */
function lastAgentReply(conversation: string): string | undefined {
  const parts = conversation.split(AGENT_TURN);
  return parts.length > 1 ? (parts.at(-1) as string) : undefined;
}

/** The customer's next message for `message` (a simulate prompt). */
export function customerReply(message: string): string {
  const goal = between(message, 'goal') ?? message.trim();
  const order = ORDER_NUMBER.exec(goal)?.[0];
  const last = lastAgentReply(between(message, 'conversation') ?? '');
  if (last === undefined) return `Hello. ${goal}${order ? ` My order number is ${order}.` : ''}`;
  if (/\b(issued|resolved)\b/i.test(last)) return CUSTOMER_CLOSING;
  if (ASKS_ORDER_NUMBER.test(last)) {
    return order ? `It is order ${order}.` : 'I do not have an order number.';
  }
  return 'Any news on my request?';
}
