// The seeded `grader` agent: a deterministic judge, so suites that grade replies can be tested
// exactly. Its rules (README, "The embedded mock"):
//
// - It reads the text between <rubric>…</rubric> and between <reply>…</reply> of the message (the
//   default grader prompt has both; without them the whole message is both).
// - The words the rubric puts in double quotes are what it looks for: each word (letters and
//   digits, any case) found among the reply's words counts. The score is 1 + 4 × the share found,
//   rounded (all: 5, none: 1); a rubric that quotes nothing scores 3. `pass` is a score of 4 or more;
//   the reason names what was found and what was missing.
// - A rubric that says [bare] gets the score alone ("4"), [fenced] gets the JSON in a ```json block
//   between two sentences, and [garbage] gets an answer with no verdict in it.

const WORD = /[\p{L}\p{N}]+/gu;

function between(text: string, tag: string): string | undefined {
  const open = text.indexOf(`<${tag}>`);
  const close = text.lastIndexOf(`</${tag}>`);
  return open >= 0 && close > open ? text.slice(open + tag.length + 2, close) : undefined;
}

function words(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0]);
}

/** The grader's verdict on `message` (a grading prompt) as JSON text. */
export function graderReply(message: string): string {
  const rubric = between(message, 'rubric') ?? message;
  const reply = between(message, 'reply') ?? message;
  if (rubric.includes('[garbage]')) return 'I would rather not say how good that was.';
  const wanted = [...new Set([...rubric.matchAll(/"([^"]*)"/g)].flatMap((m) => words(m[1] as string)))];
  const said = new Set(words(reply));
  const found = wanted.filter((w) => said.has(w));
  const missing = wanted.filter((w) => !said.has(w));
  const score = wanted.length === 0 ? 3 : 1 + Math.round((4 * found.length) / wanted.length);
  const reason =
    wanted.length === 0
      ? 'The rubric quotes nothing to look for.'
      : [
          found.length > 0 ? `Says ${found.map((w) => `'${w}'`).join(', ')}` : 'Says none of it',
          missing.length > 0 ? `missing ${missing.map((w) => `'${w}'`).join(', ')}` : 'missing nothing',
        ].join('; ') + '.';
  if (rubric.includes('[bare]')) return String(score);
  const verdict = JSON.stringify({ score, pass: score >= 4, reason });
  if (rubric.includes('[fenced]')) return `Here is my verdict:\n\`\`\`json\n${verdict}\n\`\`\`\nThanks.`;
  return verdict;
}
