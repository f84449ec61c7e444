// A HAR file made into test cases: one case per whole chat, a suite per agent, written beside the
// user's suites without replacing any, and nothing secret written.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { writeHarCases } from '../../../electron/core/suites/har-cases';
import { loadSuiteFile } from '../../../electron/core/suites/suite-loader';

const KEY = 'ams_Hh3Jj4Kk5Ll6Zz7Xx8Cc9Vv0Bb1Nn2Mm3Q';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'har-cases-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface Chat {
  body: object;
  reply: string;
  streamed?: boolean;
  status?: number;
}

function har(chats: Chat[], extra: object[] = []): string {
  const entries = chats.map(({ body, reply, streamed = true, status = 200 }) => ({
    startedDateTime: '2026-11-28T06:00:00.000Z',
    time: 50,
    request: {
      method: 'POST',
      url: 'https://127.0.0.1:8443/api/v1/chat',
      headers: [{ name: 'Authorization', value: `Bearer ${KEY}` }],
      postData: { text: JSON.stringify(body) },
    },
    response: {
      status,
      headers: [{ name: 'content-type', value: streamed ? 'text/event-stream' : 'application/json' }],
      content: {
        text: streamed
          ? `${[...reply].map((c) => `data: ${JSON.stringify({ content: c })}\n\n`).join('')}data: [DONE]`
          : JSON.stringify({ response: reply, agent: 'echo', request_id: 'req_1' }),
      },
    },
  }));
  return JSON.stringify({ log: { entries: [...entries, ...extra] } });
}

describe('writeHarCases', () => {
  test('writes one case per whole chat, the reply’s first words expected, that loads as a suite', async () => {
    const written = await writeHarCases(
      folder,
      'My Session.har',
      har(
        [
          { body: { message: 'hello there', agent: 'echo', stream: true }, reply: 'Echo: hello there' },
          { body: { message: 'plain', agent: 'echo', stream: false }, reply: 'Echo: plain', streamed: false },
          { body: { message: 'failed', agent: 'echo' }, reply: 'x', status: 500 },
        ],
        [
          {
            startedDateTime: '2026-11-28T06:00:00Z',
            request: { method: 'GET', url: 'https://127.0.0.1:8443/api/v1/agents' },
            response: { status: 200 },
          },
        ],
      ),
    );
    expect(written).toEqual({ files: ['my-session.yaml'], cases: 2, skipped: 1 });
    const suite = await loadSuiteFile(join(folder, 'my-session.yaml'));
    expect(suite.name).toBe('Imported from My Session.har');
    expect(suite.cases.map((c) => c.name)).toEqual(['hello there', 'plain']);
    const text = await readFile(join(folder, 'my-session.yaml'), 'utf8');
    expect(text).toContain('- contains: "Echo: hello there"');
    expect(text).toContain('- completes: true');
    expect(text).toContain('agents:\n    - echo');
  });

  test('makes a suite per agent and never replaces a file the folder has', async () => {
    await writeFile(join(folder, 'run.yaml'), 'mine\n');
    const written = await writeHarCases(
      folder,
      'run.har',
      har([
        { body: { message: 'a' }, reply: 'default reply' },
        { body: { message: 'b', agent: 'helpdesk' }, reply: 'Thanks' },
        { body: { message: 'b', agent: 'helpdesk' }, reply: 'Thanks' },
      ]),
    );
    expect(written.files).toEqual(['run-2.yaml', 'run-helpdesk.yaml']);
    expect(await readFile(join(folder, 'run.yaml'), 'utf8')).toBe('mine\n');
    const helpdesk = await loadSuiteFile(join(folder, 'run-helpdesk.yaml'));
    expect(helpdesk.cases.map((c) => c.name)).toEqual(['b', 'b (2)']);
  });

  test('writes no key, credential or masked text into a suite file', async () => {
    const written = await writeHarCases(
      folder,
      `${KEY}.har`,
      har([
        { body: { message: `my key is ${KEY}`, agent: 'echo' }, reply: 'x' },
        { body: { message: 'fine', agent: 'echo' }, reply: `here: ${KEY}` },
        { body: { message: 'kept', agent: 'echo' }, reply: 'Echo: kept' },
      ]),
    );
    expect(written).toMatchObject({ cases: 1, skipped: 2, files: ['imported.yaml'] });
    const files = await readdir(folder);
    const all =
      (await Promise.all(files.map((f) => readFile(join(folder, f), 'utf8')))).join('\n') + files.join(' ');
    for (let i = 0; i + 12 <= KEY.length; i++) expect(all).not.toContain(KEY.slice(i, i + 12));
    expect(all).not.toContain('***');
  });

  test('says so in words when the file holds no chat', async () => {
    await expect(writeHarCases(folder, 'x.har', har([], []))).rejects.toMatchObject({ code: 'NO_CHATS' });
    await expect(writeHarCases(folder, 'x.har', 'nope')).rejects.toMatchObject({ code: 'HAR_INVALID' });
    expect(await readdir(folder)).toEqual([]);
  });

  test('keeps control characters of a message as YAML escapes, and the file still loads', async () => {
    await writeHarCases(
      folder,
      'c.har',
      har([{ body: { message: 'bell\u0007 esc\u001b[2J' }, reply: 'ok' }]),
    );
    const text = await readFile(join(folder, 'c.yaml'), 'utf8');
    expect(text.includes('\u0007') || text.includes('\u001b')).toBe(false);
    const suite = await loadSuiteFile(join(folder, 'c.yaml'));
    expect(suite.cases).toHaveLength(1);
  });
});
