// A pasted curl command read as the Playground's chat: the five shapes people paste (headers before
// or after the URL, --data-raw, -d @file, line continuations, --json), what is not a chat, and
// hostile input — a key never in the result, control characters, unbalanced quotes, giant input.
import { describe, expect, it } from 'vitest';
import { CurlImportError, importCurl, looksLikeCurl, MAX_CURL_CHARS } from '../../shared/curl-import';

const KEY = 'ams_Zx81Qw0pLm4Nb7Vc2Xz9Ty6Ru3Ei5Oa7';
const URL_ = 'https://agents.example.com/api/v1/chat';
const BODY = `{"message":"Where is my order?","agent":"helpdesk","session_id":"s42","stream":true}`;

/** Every 12-character run of the key, as the leak tests look for it. */
const piecesOfKey = (text: string): string[] => {
  const found: string[] = [];
  for (let i = 0; i + 12 <= KEY.length; i++)
    if (text.includes(KEY.slice(i, i + 12))) found.push(KEY.slice(i, i + 12));
  return found;
};

describe('importCurl: the five shapes', () => {
  const expected = {
    kind: 'chat',
    server: 'https://agents.example.com',
    message: 'Where is my order?',
    agent: 'helpdesk',
    sessionId: 's42',
    stream: true,
  };

  it('reads headers before or after the URL, in any order', () => {
    const before = importCurl(
      `curl -H 'Content-Type: application/json' -H "Authorization: Bearer $AGENT_API_KEY" -X POST ${URL_} -d '${BODY}'`,
    );
    const after = importCurl(
      `curl ${URL_} -d '${BODY}' --header "Authorization: Bearer \${AGENT_API_KEY}" -XPOST -H 'Content-Type: application/json'`,
    );
    expect(before).toMatchObject({ ...expected, key: 'variable' });
    expect(after).toEqual(before);
  });

  it('reads --data-raw, quotes inside the JSON included', () => {
    const result = importCurl(
      `curl -X POST '${URL_}' -H 'Authorization: Bearer ${KEY}' --data-raw '{"message":"it'\\''s \\"late\\"","stream":false}'`,
    );
    expect(result).toMatchObject({ kind: 'chat', message: `it's "late"`, stream: false, key: 'literal' });
    expect(piecesOfKey(JSON.stringify(result))).toEqual([]);
  });

  it('says in words that -d @file cannot be read from a paste, and keeps the rest', () => {
    const result = importCurl(`curl -N ${URL_} -H 'Accept: text/event-stream' -d @body.json`);
    expect(result).toMatchObject({
      kind: 'chat',
      server: 'https://agents.example.com',
      stream: true,
      key: 'none',
    });
    expect(result).not.toHaveProperty('message');
    expect(result.notes.join(' ')).toContain('read from the file body.json');
  });

  it('joins line continuations: \\ + newline, and cmd.exe’s ^ + newline', () => {
    const sh = importCurl(
      `curl -X POST ${URL_} \\\n  -H "Authorization: Bearer $AGENT_API_KEY" \\\r\n  -d '${BODY}'`,
    );
    const cmd = importCurl(
      `curl -X POST ${URL_} ^\r\n  -H "Authorization: Bearer %AGENT_API_KEY%" ^\n  --data-raw "{\\"message\\":\\"hi\\"}"`,
    );
    expect(sh).toMatchObject({ ...expected, key: 'variable' });
    expect(cmd).toMatchObject({ kind: 'chat', message: 'hi', stream: false, key: 'variable' });
  });

  it('reads --json as a POST of JSON', () => {
    expect(importCurl(`curl --json '${BODY}' --url ${URL_}`)).toMatchObject({ ...expected, key: 'none' });
  });
});

describe('importCurl: the rest of a chat', () => {
  it('takes stream from the body, else from Accept: text/event-stream or -N', () => {
    const bare = `curl ${URL_} -d '{"message":"hi"}'`;
    expect(importCurl(bare)).toMatchObject({ stream: false });
    expect(importCurl(`${bare} -H 'Accept: text/event-stream'`)).toMatchObject({ stream: true });
    expect(importCurl(`${bare} --no-buffer`)).toMatchObject({ stream: true });
    expect(importCurl(`curl -N ${URL_} -d '{"message":"hi","stream":false}'`)).toMatchObject({
      stream: false,
    });
  });

  it('names a server behind a path prefix with its prefix', () => {
    expect(importCurl(`curl https://gw.example.com/team/api/v1/chat/ -d '{"message":"x"}'`)).toMatchObject({
      kind: 'chat',
      server: 'https://gw.example.com/team',
    });
  });

  it('reads this console’s own Copy as curl', () => {
    const copied = `curl -N --cacert '/tmp/ca.pem' -X POST 'https://127.0.0.1:4443/api/v1/chat' -H "Authorization: Bearer $AGENT_API_KEY" -H 'Content-Type: application/json' --data-raw '{"message":"hello","agent":"echo","stream":true}'`;
    expect(importCurl(copied)).toMatchObject({
      kind: 'chat',
      server: 'https://127.0.0.1:4443',
      message: 'hello',
      agent: 'echo',
      stream: true,
      key: 'variable',
      notes: [],
    });
  });

  it('leaves out a session id the service would refuse, and says so', () => {
    const result = importCurl(`curl ${URL_} -d '{"message":"x","session_id":"no spaces allowed"}'`);
    expect(result).not.toHaveProperty('sessionId');
    expect(result.notes.join(' ')).toContain('session id is not one the service takes');
  });

  it('stops at a pipe and ignores options it does not need', () => {
    const result = importCurl(`curl -sS -k --max-time 30 -o out.json ${URL_} -d '{"message":"x"}' | jq .`);
    expect(result).toMatchObject({ kind: 'chat', message: 'x' });
    expect(result.notes).toContain('Only the curl command was read, not what follows it in the pipeline.');
  });
});

describe('importCurl: not a chat', () => {
  it('says what a GET /agents is and what the Playground takes', () => {
    const result = importCurl(
      `curl https://agents.example.com/api/v1/agents?limit=5 -H "Authorization: Bearer $AGENT_API_KEY"`,
    );
    expect(result).toMatchObject({ kind: 'other', method: 'GET', path: '/api/v1/agents' });
    expect(result.kind === 'other' && result.explanation).toMatch(/list of agents.*POST \/api\/v1\/chat/);
  });

  it('explains that …/chat/stream is not a path of the service', () => {
    const result = importCurl(`curl -X POST ${URL_}/stream -d '{"message":"x"}'`);
    expect(result.kind === 'other' && result.explanation).toContain('"stream": true');
  });

  it('names a thread message as the Threads screen’s', () => {
    const result = importCurl(
      `curl -X POST https://a.example.com/api/v1/threads/t1/messages -d '{"message":"x"}'`,
    );
    expect(result.kind === 'other' && result.explanation).toContain('Threads screen');
  });
});

describe('importCurl: hostile input', () => {
  it('never carries the key, wherever the command puts it', () => {
    const commands = [
      `curl ${URL_} -H 'Authorization: Bearer ${KEY}' -d '{"message":"x"}'`,
      `curl ${URL_} -H 'X-Api-Key: ${KEY}' -d '{"message":"x"}'`,
      `curl '${URL_}?api_key=${KEY}' -d '{"message":"x"}'`,
      `curl 'https://user:${KEY}@agents.example.com/api/v1/chat' -d '{"message":"x"}'`,
      `curl ${URL_} -u ${KEY}: -d '{"message":"x"}'`,
      `curl ${URL_} -H 'X-Trace: ${KEY}' -d '{"message":"x"}'`,
      `curl ${URL_} -d '{"message":"my key is ${KEY}","agent":"${KEY}","session_id":"${KEY}"}'`,
      `curl ${URL_} -H 'Authorization: Bearer ${KEY.replace('_', '')}' -d '{"message":"${KEY.replace('_', '')}"}'`,
      `curl ${URL_} -u 'me:${KEY.replace('_', '-')}' -d '{"message":"x","agent":"${KEY.replace('_', '-')}"}'`,
      `curl https://a.example.com/api/v1/agents/${KEY} -H 'Authorization: ${KEY}'`,
      `curl ${URL_} -d @/home/me/${KEY}.json -b 'session=${KEY}'`,
      `curl ${URL_} -d '{"message":"x","${KEY}":1}'`,
    ];
    for (const command of commands) {
      const result = importCurl(command);
      expect(piecesOfKey(JSON.stringify(result)), command).toEqual([]);
      expect(result.key, command).toBe('literal');
    }
  });

  it('refuses control characters in words, naming the first', () => {
    expect(() => importCurl(`curl ${URL_} -d '{"message":"\u001b]0;pwned\u0007"}'`)).toThrow(
      new CurlImportError('The command holds a control character (U+001B); paste it as plain text.'),
    );
    expect(() => importCurl(`curl ${URL_} -d 'x\u202e'`)).toThrow(/U\+202E/);
  });

  it('refuses an unbalanced quote in words instead of guessing where it ends', () => {
    expect(() => importCurl(`curl ${URL_} -d '{"message":"cut`)).toThrow(/' quote that is never closed/);
    expect(() => importCurl(`curl ${URL_} -H "Accept: x`)).toThrow(/" quote that is never closed/);
  });

  it('refuses a giant command before reading it, and reads one just under the bound quickly', () => {
    expect(() => importCurl(`curl ${URL_} -d '${'a'.repeat(MAX_CURL_CHARS)}'`)).toThrow(
      /KB; a chat's curl is at most 256 KB/,
    );
    const quotes = `curl ${URL_} ${'"\\\\" '.repeat((MAX_CURL_CHARS - 100) / 5)}`;
    const started = performance.now();
    expect(() => importCurl(quotes)).not.toThrow(RangeError);
    const message = 'x'.repeat(MAX_CURL_CHARS - 200);
    expect(importCurl(`curl ${URL_} -d '{"message":"${message}"}'`)).toMatchObject({ message });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('says what is wrong with a command that is no chat body or no curl at all', () => {
    expect(() => importCurl('wget https://x')).toThrow(/does not start with curl/);
    expect(() => importCurl('curl -X POST')).toThrow(/names no URL/);
    expect(() => importCurl(`curl ${URL_} -d 'message=hi'`)).toThrow(/not JSON/);
    expect(() => importCurl(`curl ${URL_} -d '[1]'`)).toThrow(/not a JSON object/);
    expect(() => importCurl(`curl file:///etc/passwd`)).toThrow(/file: URL/);
    expect(() => importCurl(`curl ${URL_} -H`)).toThrow(/-H needs a value/);
  });
});

describe('looksLikeCurl', () => {
  it('is a paste that starts with curl and a space', () => {
    expect(looksLikeCurl('  curl https://x')).toBe(true);
    expect(looksLikeCurl('curl.exe https://x')).toBe(true);
    expect(looksLikeCurl('curly hair')).toBe(false);
    expect(looksLikeCurl('how do I curl this?')).toBe(false);
  });
});
