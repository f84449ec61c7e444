// A HAR file made into test cases (docs/architecture.md, "Agent test suites"): one case per chat
// exchange in it (POST /api/v1/chat with a message and a reply), its expectations suggested from
// the reply as "Save as test case" suggests them, written as a new suite file per agent into the
// open folder. The HAR is read by har-import.ts, so every credential is gone before a case is made,
// and a case whose message or reply still holds a secret is left out: a suite file is committed.
import { writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { createParser } from 'eventsource-parser';
import { Document } from 'yaml';
import { API_PREFIX, STREAM_DONE } from '../../../shared/api-limits';
import { CoreError } from '../core-error';
import { readHar, type HarExchange } from '../har-import';
import { secretIn } from '../redact';
import { caseName, suggestAssertions } from './save-case';
import { parseSuite } from './suite-loader';
import { suitePath } from './suite-folder';

export interface HarCasesWritten {
  /** The suite files written, by name in the folder. */
  files: string[];
  cases: number;
  /** Chat exchanges left out: a failed reply, a body that is not a chat, a secret in it. */
  skipped: number;
}

interface Exchange {
  message: string;
  agent: string | undefined;
  reply: string;
  stream: boolean;
}

/** Writes the HAR's chat exchanges as suites into `folder`; a name already taken gets -2, -3… */
export async function writeHarCases(
  folder: string,
  fileName: string,
  text: string,
): Promise<HarCasesWritten> {
  const { exchanges } = readHar(text);
  const chats = exchanges.filter(isChat);
  const read = chats.map(toExchange).filter((e): e is Exchange => e !== undefined);
  if (read.length === 0) {
    throw new CoreError(
      'NO_CHATS',
      chats.length === 0
        ? 'The file holds no chat (POST /api/v1/chat): there is nothing to make test cases of.'
        : 'None of the chats in the file has a whole reply without a secret in it: no test case was written.',
    );
  }
  const byAgent = new Map<string | undefined, Exchange[]>();
  for (const exchange of read)
    byAgent.set(exchange.agent, [...(byAgent.get(exchange.agent) ?? []), exchange]);
  // A file name is text the user did not write for a suite: one holding a secret is not repeated.
  const shownName = secretIn(fileName) ? 'a HAR file' : basename(fileName);
  const stem = secretIn(fileName) ? 'imported' : fileStem(fileName);
  const files: string[] = [];
  for (const [agent, group] of byAgent) {
    const suite = {
      name: `Imported from ${shownName}${byAgent.size > 1 ? ` (${agent ?? 'default agent'})` : ''}`,
      description:
        'One case per chat in the HAR file. Each expects the reply to contain its first words, as it did then: edit them to what matters.',
      ...(agent ? { targets: { agents: [agent] } } : {}),
      cases: uniqueNames(group).map(({ name, exchange }) => ({
        name,
        message: exchange.message,
        ...(exchange.stream ? {} : { stream: false }),
        assert: suggestAssertions({ ...exchange, ttftMs: undefined }),
      })),
    };
    const yaml = new Document(suite).toString();
    parseSuite(yaml, `${stem}.yaml`); // what is written loads
    files.push(
      await writeNew(folder, `${stem}${agent && byAgent.size > 1 ? `-${fileStem(agent)}` : ''}`, yaml),
    );
  }
  return { files, cases: read.length, skipped: exchanges.filter(isChat).length - read.length };
}

function isChat(exchange: HarExchange): boolean {
  const path = URL.canParse(exchange.url) ? new URL(exchange.url).pathname.replace(/\/+$/, '') : '';
  return exchange.method === 'POST' && path.endsWith(`${API_PREFIX}/chat`);
}

/** The exchange as a case's input and reply; undefined when it is not a whole chat without a secret. */
function toExchange(exchange: HarExchange): Exchange | undefined {
  if (exchange.status < 200 || exchange.status > 299 || exchange.errorCode) return undefined;
  const body = parseJson(exchange.requestBody);
  if (typeof body?.message !== 'string' || body.message === '') return undefined;
  const agent = typeof body.agent === 'string' && body.agent !== '' ? body.agent : undefined;
  const reply = exchange.streamed
    ? streamedReply(exchange.responseBody ?? '')
    : (() => {
        const response = parseJson(exchange.responseBody)?.response;
        return typeof response === 'string' ? response : undefined;
      })();
  if (reply === undefined) return undefined;
  if (
    [body.message, reply, agent].some(
      (text) => text !== undefined && (secretIn(text) || text.includes('***')),
    )
  ) {
    return undefined;
  }
  return { message: body.message, agent, reply, stream: exchange.streamed };
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The text of an SSE reply (spec §6); undefined when it ended in an error or never said [DONE]. */
function streamedReply(events: string): string | undefined {
  let text = '';
  let done = false;
  let failed = false;
  const parser = createParser({
    onEvent: ({ data }) => {
      if (data === STREAM_DONE) {
        done = true;
        return;
      }
      const frame = parseJson(data);
      if (typeof frame?.content === 'string') text += frame.content;
      else if (frame?.error !== undefined) failed = true;
    },
  });
  // The log keeps a stream's text as it came, without the blank line that would end its last event.
  parser.feed(`${events}\n\n`);
  return done && !failed ? text : undefined;
}

/** Case names as "Save as test case" makes them, a repeated one numbered. */
function uniqueNames(group: readonly Exchange[]): { name: string; exchange: Exchange }[] {
  const seen = new Map<string, number>();
  return group.map((exchange) => {
    const base = caseName(exchange.message);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { name: count === 1 ? base : `${base} (${count})`, exchange };
  });
}

/** A file name's stem as a suite file's: letters, digits and dashes. */
function fileStem(name: string): string {
  const stem = basename(name, extname(name))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'imported';
}

/** Written only where no file is (O_EXCL): an import never replaces a suite the user has. */
async function writeNew(folder: string, stem: string, text: string): Promise<string> {
  for (let n = 1; n < 100; n++) {
    const name = `${stem}${n === 1 ? '' : `-${n}`}.yaml`;
    try {
      await writeFile(suitePath(folder, name), text, { flag: 'wx' });
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new CoreError('BAD_INPUT', `The folder already holds ${stem}.yaml and 98 more like it.`);
}
