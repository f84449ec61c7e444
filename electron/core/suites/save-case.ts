// "Save as test case" from a playground reply: a case with the message and assertions suggested
// from the reply (a phrase it contains, that the stream completes, time to first chunk under twice
// what was observed), appended to a suite file so the file's comments, order, other cases and
// compact lists ([echo]) stay as the user wrote them. A new file gets a suite around the case.
import { readFile } from 'node:fs/promises';
import type { YAMLMap, YAMLSeq } from 'yaml';
import { Document, isMap, isSeq, parseDocument } from 'yaml';
import writeFileAtomic from 'write-file-atomic';
import type { SuiteAssertion } from '../../../shared/suite';
import { CoreError } from '../core-error';
import { secretIn } from '../redact';
import { parseSuite } from './suite-loader';

export interface ObservedReply {
  message: string;
  /** Slug or id; undefined = the service's default agent. */
  agent: string | undefined;
  reply: string;
  stream: boolean;
  ttftMs?: number | undefined;
}

/** Below this a doubled time to first chunk is scheduling noise, not a budget. */
const MIN_TTFT_BUDGET_MS = 100;
const PHRASE_MAX = 40;

/** A phrase of the reply worth asserting: its first words, up to about 40 characters. */
export function suggestPhrase(reply: string): string | undefined {
  const line = reply
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  if (!line) return undefined;
  if (line.length <= PHRASE_MAX) return line;
  const cut = line.slice(0, PHRASE_MAX);
  const space = cut.lastIndexOf(' ');
  return space > 10 ? cut.slice(0, space) : cut;
}

export function suggestAssertions(observed: ObservedReply): SuiteAssertion[] {
  const assert: SuiteAssertion[] = [];
  const phrase = suggestPhrase(observed.reply);
  if (phrase) assert.push({ contains: phrase });
  if (observed.stream) {
    assert.push({ completes: true });
    if (observed.ttftMs !== undefined) {
      assert.push({ 'ttft-ms': Math.max(MIN_TTFT_BUDGET_MS, Math.ceil(observed.ttftMs * 2)) });
    }
  }
  return assert;
}

export function caseName(message: string): string {
  const words = message.replace(/\s+/g, ' ').trim();
  return words.length <= 50 ? words || 'saved reply' : `${words.slice(0, 49)}…`;
}

/**
 * A suite file is committed and reviewed like code, and the masking of outputs never sees it:
 * nothing that holds a key or a secret this console keeps may go into one. The reply is checked
 * whole, since the assertion suggested from it is a piece of it.
 */
export function refuseSecrets(parts: readonly (readonly [string, string | undefined])[]): void {
  for (const [what, text] of parts) {
    const found = text === undefined ? undefined : secretIn(text);
    if (!found) continue;
    const held =
      found === 'key'
        ? 'an API key'
        : 'a secret this console keeps (an API key, a webhook URL or a suite’s declared value)';
    throw new CoreError('HOLDS_SECRET', `The ${what} holds ${held}; it was not saved to the suite file.`);
  }
}

/** Writes the case to `path` (created when missing); returns its name and the file's new text. */
export async function saveCase(
  path: string,
  observed: ObservedReply,
  name = caseName(observed.message),
): Promise<{ caseName: string; text: string }> {
  refuseSecrets([
    ['message', observed.message],
    ['reply', observed.reply],
    ['case name', name],
    ['agent', observed.agent],
  ]);
  const entry = {
    name,
    message: observed.message,
    ...(observed.stream ? {} : { stream: false }),
    assert: suggestAssertions(observed),
  };
  const text = await appendCase(path, () => entry, {
    agent: observed.agent,
    suiteName: 'Saved from the playground',
  });
  return { caseName: name, text };
}

/** What a suite file a case is appended to already says, for the case's own choices. */
export interface SuiteContext {
  /** The suite grades judged checks (`grader: { agent }`), so `similar-to` can run there. */
  graded: boolean;
}

/**
 * Appends the case `entry` makes to the suite file at `path` — one that runs against `agent`
 * (refused otherwise), or a new file named `suiteName` — and writes it only once the result
 * loads. Returns the file's new text.
 */
export async function appendCase(
  path: string,
  entry: (suite: SuiteContext) => object,
  options: { agent: string | undefined; suiteName: string },
): Promise<string> {
  const { agent } = options;
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  let out: string;
  if (text === undefined || text.trim() === '') {
    const doc = parseDocument('');
    doc.contents = doc.createNode({
      name: options.suiteName,
      ...(agent ? { targets: { agents: [agent] } } : {}),
      cases: [entry({ graded: false })],
    }) as unknown as typeof doc.contents;
    out = doc.toString();
  } else {
    // The file must load now: appending to a broken file would hide its problem behind a new one.
    const suite = parseSuite(text, path);
    const agents = suite.targets.agents;
    const fits = agent === undefined ? agents === undefined : (agents ?? []).includes(agent);
    if (!fits) {
      throw new CoreError(
        'BAD_INPUT',
        `${suite.name} runs against ${agents?.join(', ') ?? 'the default agent'}, not ${agent ?? 'the default agent'}: choose a suite for that agent or a new file.`,
      );
    }
    const doc = parseDocument(text);
    const cases = isMap(doc.contents) ? doc.contents.get('cases', true) : undefined;
    if (!isSeq(cases)) throw new CoreError('BAD_INPUT', `${path} has no list of cases to add to.`);
    const made = entry({ graded: doc.getIn(['grader', 'agent']) !== undefined });
    out = appendToBlockList(text, cases, made) ?? appendToDocument(doc, cases, made);
  }
  parseSuite(out, path); // what is written loads
  await writeFileAtomic(path, out);
  return out;
}

/**
 * The case written after the last one of a block list (`- name: …` lines), indented as they are:
 * the rest of the file is left byte for byte. Undefined for a flow list (`cases: [ … ]`) or an
 * empty one, which appendToDocument handles.
 */
function appendToBlockList(text: string, cases: YAMLSeq, entry: object): string | undefined {
  const [start, end] = cases.range ?? [];
  if (cases.flow || cases.items.length === 0 || start === undefined || end === undefined) return undefined;
  const indent = ' '.repeat(start - (text.lastIndexOf('\n', start - 1) + 1));
  const item = new Document([entry])
    .toString()
    .split('\n')
    .map((line) => (line ? `${indent}${line}` : line))
    .join('\n');
  const before = text.slice(0, end);
  return `${before}${before.endsWith('\n') ? '' : '\n'}${item}${text.slice(end)}`;
}

/** The case added through the yaml Document, with flow lists kept compact (`[echo]`, not `[ echo ]`). */
function appendToDocument(doc: Document, cases: YAMLSeq, entry: object): string {
  cases.add(doc.createNode(entry) as YAMLMap);
  return doc.toString({ flowCollectionPadding: false });
}
