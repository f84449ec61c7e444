// A pasted curl command read as the chat it sends (docs/security.md, "Imported curl and HAR"): the
// server it names, and the agent, message, session id and stream setting of a POST /api/v1/chat.
// Pure, so the renderer (a paste into the Playground) and any other front end read it alike. Words
// are split by shell-quote, as Insomnia's curl importer does; the command is hostile input, so its
// size is bounded before anything reads it, and a key in it never reaches the result.
import { parse, type ParseEntry } from 'shell-quote';
import { API_PREFIX, SESSION_ID_PATTERN } from './api-limits';
import { containsKeyShaped, KEY_SHAPED_SOURCE } from './key-shape';

/**
 * Twice the service's 100 KB message, with room for quoting and headers: a chat any curl could
 * send fits, and no paste can make the split hold the page.
 */
export const MAX_CURL_CHARS = 256 * 1024;

/** A command the importer cannot read, said in words a user can act on. */
export class CurlImportError extends Error {
  override readonly name = 'CurlImportError';
}

/**
 * What the command says of the key: none at all, a shell variable (`$AGENT_API_KEY`, this
 * console's own "Copy as curl"), or a credential written out, which was dropped.
 */
type CurlKey = 'none' | 'variable' | 'literal';

interface CurlCommon {
  /** The server: the URL's origin, and any path before /api/v1 (a service behind a prefix). */
  server: string;
  key: CurlKey;
  /** What was left out or read differently, one sentence each. */
  notes: string[];
}

interface CurlChat extends CurlCommon {
  kind: 'chat';
  /** Undefined when the command has none the Playground can take (a body read from a file). */
  message?: string;
  agent?: string;
  sessionId?: string;
  stream: boolean;
}

interface CurlOther extends CurlCommon {
  kind: 'other';
  method: string;
  /** The path, without its query (which may carry a credential). */
  path: string;
  /** What the call is and what the Playground takes instead, in words. */
  explanation: string;
}

export type CurlImport = CurlChat | CurlOther;

/** True when pasted text is a curl command to import rather than a message. */
export function looksLikeCurl(text: string): boolean {
  return /^\s*curl(?:\.exe)?\s/.test(text);
}

/** Options whose value is the next word (or glued on, as `-XPOST`), and that this reader ignores. */
const IGNORED_WITH_VALUE = new Set([
  '-o',
  '--output',
  '--cacert',
  '--capath',
  '-E',
  '--cert',
  '--key',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-c',
  '--cookie-jar',
  '-x',
  '--proxy',
  '-w',
  '--write-out',
  '--retry',
  '--resolve',
  '--connect-to',
  '-r',
  '--range',
  '--limit-rate',
  '-T',
  '--upload-file',
]);
const DATA_OPTIONS = new Set(['-d', '--data', '--data-ascii', '--data-binary', '--data-urlencode']);
/** The one-letter options above that take a value, and -X, -H, -d, -u, -b, -F. */
const SHORT_WITH_VALUE = new Set([...'XHdubFoEmAecxwrT']);
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key']);

/** A variable the shell (or cmd.exe) would expand, alone or after an auth scheme. */
const VARIABLE_CREDENTIAL = /^(?:[A-Za-z][\w-]*\s+)?(?:\$\{?[A-Za-z_]\w*\}?|%[A-Za-z_]\w*%)$/;

interface Parsed {
  method?: string;
  url?: string;
  headers: [string, string][];
  body?: { text: string } | { file: string };
  json: boolean;
  noBuffer: boolean;
  key: CurlKey;
  /** The credentials written out in the command: text holding one of them is left out too. */
  secrets: string[];
  notes: string[];
}

/** Reads a curl command; throws CurlImportError, in words, for one it cannot read. */
export function importCurl(command: string): CurlImport {
  const parsed = parseCommand(command);
  if (!parsed.url) throw new CurlImportError('The command names no URL to call.');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(parsed.url) ? parsed.url : `https://${parsed.url}`);
  } catch {
    throw new CurlImportError('The URL in the command is not one a browser could open.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CurlImportError(`The command calls a ${url.protocol} URL; the service is reached over https.`);
  }
  if (url.username || url.password) {
    parsed.key = 'literal';
    parsed.notes.push('The user name and password in the URL were dropped.');
  }
  if (url.search && containsKeyShaped(url.search)) parsed.key = 'literal';
  const prefixAt = url.pathname.indexOf(API_PREFIX);
  const server = `${url.origin}${prefixAt > 0 ? url.pathname.slice(0, prefixAt) : ''}`;
  const path = maskKeys(prefixAt >= 0 ? url.pathname.slice(prefixAt) : url.pathname);
  const method = (parsed.method ?? (parsed.body ? 'POST' : 'GET')).toUpperCase();
  const common = { server: maskKeys(server), key: parsed.key, notes: parsed.notes };
  const apiPath = path.replace(/\/+$/, '');
  if (method !== 'POST' || apiPath !== `${API_PREFIX}/chat`) {
    return { kind: 'other', ...common, method, path, explanation: explain(method, apiPath) };
  }
  const chat = readChat(parsed);
  return { kind: 'chat', ...common, key: parsed.key, ...chat };
}

function parseCommand(command: string): Parsed {
  if (command.length > MAX_CURL_CHARS) {
    throw new CurlImportError(
      `The command is ${Math.round(command.length / 1024)} KB; a chat's curl is at most ${MAX_CURL_CHARS / 1024} KB.`,
    );
  }
  // Raw control characters have no place in a command typed or copied from a page: a message's
  // newlines and escapes travel inside its JSON as \n and \u001b.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(
    command,
  );
  if (control) {
    const code = (control[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
    throw new CurlImportError(`The command holds a control character (U+${code}); paste it as plain text.`);
  }
  const joined = joinContinuations(command);
  checkQuotes(joined);
  const words = parse(joined, (name) => `$${name}`);
  const [first, ...rest] = words;
  if (typeof first !== 'string' || !/^curl(?:\.exe)?$/.test(first)) {
    throw new CurlImportError('This is not a curl command: it does not start with curl.');
  }
  const parsed: Parsed = { headers: [], json: false, noBuffer: false, key: 'none', secrets: [], notes: [] };
  readWords(rest, parsed);
  return parsed;
}

/** `\` + newline (sh) and `^` + newline (cmd.exe) continue a command on the next line. */
function joinContinuations(command: string): string {
  const sh = command.replace(/\\\r?\n/g, ' ');
  return /\^\r?\n/.test(sh) && !/\\\r?\n/.test(command) ? sh.replace(/\^\r?\n/g, ' ') : sh;
}

/** shell-quote reads an unclosed quote as closed at the end; a command cut short says so instead. */
function checkQuotes(command: string): void {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i];
    if (quote === "'") {
      if (char === "'") quote = undefined;
    } else if (char === '\\') {
      i++;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    }
  }
  if (quote) {
    throw new CurlImportError(
      `The command has a ${quote} quote that is never closed: was it cut short when copied?`,
    );
  }
}

function readWords(words: readonly ParseEntry[], parsed: Parsed): void {
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as ParseEntry;
    if (typeof word !== 'string') {
      if ('comment' in word) continue;
      if ('op' in word && word.op === 'glob') {
        positional.push(word.pattern);
        continue;
      }
      parsed.notes.push('Only the curl command was read, not what follows it in the pipeline.');
      break;
    }
    const [option, glued] = splitOption(word);
    const value = (): string => {
      if (glued !== undefined) return glued;
      const next = words[++i];
      if (typeof next !== 'string') throw new CurlImportError(`${option} needs a value after it.`);
      return next;
    };
    if (option === '-X' || option === '--request') parsed.method = value();
    else if (option === '-H' || option === '--header') addHeader(parsed, value());
    else if (option === '--url') parsed.url = value();
    else if (option === '--data-raw') parsed.body = { text: value() };
    else if (DATA_OPTIONS.has(option)) parsed.body = readData(value());
    else if (option === '--json') {
      parsed.body = readData(value());
      parsed.json = true;
    } else if (option === '-u' || option === '--user') {
      parsed.secrets.push(...value().split(':'));
      parsed.key = 'literal';
    } else if (option === '-b' || option === '--cookie') {
      dropCookie(parsed, value());
    } else if (option === '-F' || option === '--form') {
      value();
      parsed.notes.push('A form field (-F) was dropped: the service takes JSON.');
    } else if (option === '-N' || option === '--no-buffer') parsed.noBuffer = true;
    else if (IGNORED_WITH_VALUE.has(option)) value();
    else if (!option.startsWith('-') || option === '-') positional.push(word);
  }
  if (!parsed.url) parsed.url = positional.shift();
  if (positional.length > 0) parsed.notes.push('Only the first URL was read.');
}

/** `-XPOST` → [`-X`, `POST`]; `--header=…` → [`--header`, `…`]; anything else as it is. */
function splitOption(word: string): [string, string | undefined] {
  if (/^-[A-Za-z]./.test(word) && SHORT_WITH_VALUE.has(word[1] as string)) {
    return [word.slice(0, 2), word.slice(2)];
  }
  const equals = /^(--[a-z][a-z-]*)=(.*)$/s.exec(word);
  return equals ? [equals[1] as string, equals[2] as string] : [word, undefined];
}

function readData(value: string): { text: string } | { file: string } {
  return value.startsWith('@') ? { file: value.slice(1) } : { text: value };
}

function addHeader(parsed: Parsed, header: string): void {
  const colon = header.indexOf(':');
  if (colon <= 0) return;
  const name = header.slice(0, colon).trim();
  const value = header.slice(colon + 1).trim();
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower)) {
    if (VARIABLE_CREDENTIAL.test(value)) {
      if (parsed.key === 'none') parsed.key = 'variable';
    } else {
      parsed.key = 'literal';
      parsed.secrets.push(value, ...value.split(/\s+/));
    }
    return;
  }
  if (lower === 'cookie') {
    dropCookie(parsed, value);
    return;
  }
  if (containsKeyShaped(value)) {
    parsed.key = 'literal';
    return;
  }
  parsed.headers.push([lower, value]);
}

function dropCookie(parsed: Parsed, cookie: string): void {
  if (containsKeyShaped(cookie)) parsed.key = 'literal';
  parsed.notes.push('Cookies were dropped.');
}

function readChat(parsed: Parsed): Omit<CurlChat, keyof CurlCommon | 'kind'> {
  const accept = parsed.headers.find(([name]) => name === 'accept')?.[1] ?? '';
  const wantsStream = accept.includes('text/event-stream') || parsed.noBuffer;
  const body = parsed.body;
  if (!body) {
    parsed.notes.push('The command sends no body, so there is no message to take.');
    return { stream: wantsStream };
  }
  if ('file' in body) {
    parsed.notes.push(
      `The body is read from the file ${maskKeys(body.file)}, which a pasted command cannot open here: paste the message into the box.`,
    );
    return { stream: wantsStream };
  }
  if (containsKeyShaped(body.text)) parsed.key = 'literal';
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw new CurlImportError('The body of this chat is not JSON; the service takes {"message": …}.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CurlImportError(
      'The body of this chat is not a JSON object; the service takes {"message": …}.',
    );
  }
  const fields = value as Record<string, unknown>;
  const out: Omit<CurlChat, keyof CurlCommon | 'kind'> = {
    stream: typeof fields.stream === 'boolean' ? fields.stream : wantsStream,
  };
  const take = (field: string, label: string): string | undefined => {
    const text = fields[field];
    if (text === undefined) return undefined;
    if (typeof text !== 'string') {
      parsed.notes.push(`The ${label} is not text, so it was left out.`);
      return undefined;
    }
    if (holdsSecret(parsed, text)) {
      parsed.key = 'literal';
      parsed.notes.push(`The ${label} holds something shaped like an API key, so it was left out.`);
      return undefined;
    }
    return text;
  };
  const message = take('message', 'message');
  const agent = take('agent', 'agent');
  const sessionId = take('session_id', 'session id');
  if (message !== undefined) out.message = message;
  else if (fields.message === undefined) parsed.notes.push('The body has no message.');
  if (agent) out.agent = agent;
  if (sessionId && SESSION_ID_PATTERN.test(sessionId)) out.sessionId = sessionId;
  else if (sessionId)
    parsed.notes.push(
      'The session id is not one the service takes (letters and digits, up to 128), so it was left out.',
    );
  const unknown = Object.keys(fields).filter(
    (k) => !['message', 'agent', 'session_id', 'stream'].includes(k),
  );
  if (unknown.length > 0) {
    parsed.notes.push(
      `Fields the chat does not take were left out: ${unknown.slice(0, 5).map(maskKeys).join(', ')}.`,
    );
  }
  return out;
}

/** Key-shaped, or holding a credential the command wrote out (of 8 characters or more, as redact.ts counts). */
function holdsSecret(parsed: Parsed, text: string): boolean {
  return (
    containsKeyShaped(text) || parsed.secrets.some((secret) => secret.length >= 8 && text.includes(secret))
  );
}

/** What a call other than a chat is, and what the Playground takes instead. */
function explain(method: string, path: string): string {
  const takes = 'The Playground takes a chat: POST /api/v1/chat with a JSON body {"message": …}.';
  const p = API_PREFIX;
  const known: [RegExp, string][] = [
    [
      new RegExp(`^${p}/chat/stream$`),
      'a streamed chat at …/chat/stream, which is not a path of this service: a streamed chat is POST /api/v1/chat with "stream": true',
    ],
    [new RegExp(`^${p}/chat$`), `a ${method} of the chat endpoint, which takes only POST`],
    [new RegExp(`^${p}/agents$`), 'the list of agents (the Agents screen shows it)'],
    [new RegExp(`^${p}/agents/[^/]+$`), 'one agent (the Agents screen shows it)'],
    [new RegExp(`^${p}/conversations`), 'conversations (the Conversations screen shows them)'],
    [new RegExp(`^${p}/threads/[^/]+/messages$`), 'a message to a thread (the Threads screen sends those)'],
    [new RegExp(`^${p}/threads`), 'threads (the Threads screen shows them)'],
    [new RegExp(`^${p}/usage$`), 'the usage report (the Usage screen shows it)'],
    [new RegExp(`^${p}/health$`), 'the health check (the Health screen shows it)'],
  ];
  const what = known.find(([pattern]) => pattern.test(path))?.[1];
  return what
    ? `This command asks for ${what}. ${takes}`
    : `This command calls ${method} ${path || '/'}, which is not a chat. ${takes}`;
}

/** Anything key-shaped in text the result shows (a path, a file name) becomes `***`. */
function maskKeys(text: string): string {
  return text.replace(new RegExp(KEY_SHAPED_SOURCE, 'g'), '***');
}
