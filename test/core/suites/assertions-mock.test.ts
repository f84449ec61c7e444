// Every assertion kind on real replies and real streams from the mock over HTTPS, passing where the
// agent does what the assertion says and failing, with the expected and the actual, where it does
// not: stream_error (glitch), a stream cut before [DONE] (the breakStreams fault), pauses (paced
// agents), errors (a stopped agent, an agent in error, an oversized message) and session memory.
import { describe, expect, test } from 'vitest';
import { STREAM_DONE } from '../../../shared/api';
import { checksOf, stepsOf, suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();

const byKind = (checks: { kind: string; passed: boolean }[]) => checks.map((c) => [c.kind, c.passed]);

describe('reply assertions on a real reply', () => {
  test('each passes on what echo said and fails, naming the reply, on what it did not', async () => {
    const result = await setup.harness.run(`
name: Reply
targets: { agents: [echo] }
cases:
  - name: right
    message: hello
    assert:
      - contains: hello
      - not-contains: Bonjour
      - equals: 'Echo: hello'
      - regex: '^Echo: h.llo$'
      - starts-with: 'Echo:'
      - max-length: 11
      - min-length: 11
  - name: wrong
    message: hello
    assert:
      - contains: Bonjour
      - not-contains: hello
      - equals: 'Echo: hello!'
      - regex: '^hello'
      - starts-with: hello
      - max-length: 10
      - min-length: 12
`);
    expect(byKind(checksOf(result, 'right'))).toEqual([
      ['reply', true],
      ['contains', true],
      ['not-contains', true],
      ['equals', true],
      ['regex', true],
      ['starts-with', true],
      ['max-length', true],
      ['min-length', true],
    ]);
    const wrong = checksOf(result, 'wrong');
    expect(wrong.map((c) => [c.kind, c.passed, c.line, c.expected, c.actual])).toEqual([
      ['reply', true, 16, 'a complete stream ([DONE])', 'a complete stream ([DONE])'],
      ['contains', false, 18, 'contains "Bonjour"', '"Echo: hello"'],
      ['not-contains', false, 19, 'does not contain "hello"', 'contains it: "Echo: hello"'],
      ['equals', false, 20, '"Echo: hello!"', '"Echo: hello"'],
      ['regex', false, 21, 'matches /^hello/', '"Echo: hello"'],
      ['starts-with', false, 22, 'starts with "hello"', '"Echo: hello"'],
      ['max-length', false, 23, '≤ 10 characters', '11 characters'],
      ['min-length', false, 24, '≥ 12 characters', '11 characters'],
    ]);
    expect(result.status).toBe('failed');
  });

  test('json: a fenced block in the reply parses, and a schema mismatch says where', async () => {
    const result = await setup.harness.run(`
name: JSON
targets: { agents: [echo] }
cases:
  - name: order
    stream: false
    message: |
      \`\`\`json
      {"order": 4711}
      \`\`\`
    assert:
      - json: true
      - json: { schema: { type: object, required: [order], properties: { order: { type: integer } } } }
      - json: { schema: { type: object, properties: { order: { type: string } } } }
  - name: prose
    message: no JSON here
    assert: [{ json: true }]
`);
    expect(checksOf(result, 'order').map((c) => [c.kind, c.passed, c.actual])).toEqual([
      ['reply', true, 'a complete reply (HTTP 200)'],
      ['json', true, 'JSON (the ```json block of the reply)'],
      ['json', true, 'JSON matching the schema (the ```json block of the reply)'],
      ['json', false, 'JSON (the ```json block of the reply), but /order must be string'],
    ]);
    expect(checksOf(result, 'prose')[1]).toMatchObject({
      kind: 'json',
      passed: false,
      actual: expect.stringMatching(/^not JSON \(.*\): "Echo: no JSON here"$/),
    });
  });
});

describe('stream assertions on real streams', () => {
  test('glitch’s stream_error: the stream does not complete, and says why', async () => {
    const result = await setup.harness.run(`
name: Glitch
targets: { agents: [glitch] }
cases:
  - name: expected
    message: go
    assert: [{ completes: false }, { code: stream_error }, { status: 200 }, { min-chunks: 4 }]
  - name: unexpected
    message: go
    assert: [{ completes: true }, { min-chunks: 5 }]
`);
    expect(byKind(checksOf(result, 'expected'))).toEqual([
      ['completes', true],
      ['code', true],
      ['status', true],
      ['min-chunks', true],
    ]);
    const unexpected = checksOf(result, 'unexpected');
    expect(unexpected.map((c) => [c.kind, c.passed])).toEqual([
      ['reply', false],
      ['completes', false],
      ['min-chunks', false],
    ]);
    expect(unexpected[1]?.actual).toMatch(
      /^stream_error: Agent 'glitch' failed mid-reply\. after "Starting on \\"go\\" and then something/,
    );
    expect(unexpected[2]?.actual).toBe('4 chunks');
    const step = stepsOf(result)[1];
    expect(step?.error).toMatchObject({ code: 'STREAM_ERROR', type: 'stream_error' });
    expect(step?.frames.map((f) => f.data).slice(-2)).toEqual([
      JSON.stringify({ error: { code: 'stream_error', message: "Agent 'glitch' failed mid-reply." } }),
      STREAM_DONE,
    ]);
  });

  test('a stream cut before [DONE] (breakStreams: drop) fails completes and is STREAM_INCOMPLETE', async () => {
    const message = 'a message long enough for several twelve-character chunks';
    setup.mock.server.control.setFaults({ breakStreams: { afterChunks: 2, mode: 'drop', count: 2 } });
    const result = await setup.harness.run(
      `
name: Cut
targets: { agents: [echo] }
cases:
  - name: expects the cut
    message: ${message}
    assert: [{ completes: false }, { code: STREAM_INCOMPLETE }, { min-chunks: 2 }]
  - name: expects a whole stream
    message: ${message}
    assert: [{ completes: true }]
`,
      { concurrency: 1 },
    );
    expect(byKind(checksOf(result, 'expects the cut'))).toEqual([
      ['completes', true],
      ['code', true],
      ['min-chunks', true],
    ]);
    const whole = checksOf(result, 'expects a whole stream');
    expect(whole[1]).toMatchObject({
      kind: 'completes',
      passed: false,
      expected: 'ends with [DONE], no stream_error',
      actual: expect.stringMatching(/^STREAM_INCOMPLETE: The connection closed before the stream finished/),
    });
    for (const step of stepsOf(result)) {
      expect(step.chunks).toBe(2);
      expect(step.frames.some((f) => f.data === STREAM_DONE)).toBe(false);
    }
  });

  test('pauses between chunks: max-gap-ms fails on a paced agent and passes with room for them', async () => {
    // 300 ms between chunks, sleeps on the mock's side: every gap the client sees is about that.
    setup.mock.server.control.setAgent('echo', { chunkDelayMs: 300 });
    const result = await setup.harness.run(`
name: Gaps
targets: { agents: [echo] }
cases:
  - name: paced
    message: forty-eight characters in four pieces, please
    assert: [{ max-gap-ms: 100 }, { max-gap-ms: 30000 }, { min-chunks: 4 }]
`);
    const [, tight, loose, chunks] = checksOf(result, 'paced');
    expect(chunks?.passed).toBe(true);
    expect(loose?.passed).toBe(true);
    expect(tight).toMatchObject({ passed: false, expected: 'no gap between chunks over 100 ms' });
    const longest = Number(/longest gap (\d+) ms/.exec(tight?.actual ?? '')?.[1]);
    expect(longest).toBeGreaterThan(100);
    expect(stepsOf(result)[0]?.maxGapMs).toBe(longest);
  });

  test('time to first chunk and total time: a slow start fails a tight bound, passes a loose one', async () => {
    setup.mock.server.control.setAgent('echo', { latencyMs: 400 });
    const result = await setup.harness.run(`
name: Slow start
targets: { agents: [echo] }
cases:
  - name: slow
    message: hi
    assert: [{ ttft-ms: 100 }, { total-ms: 100 }, { ttft-ms: 30000 }, { total-ms: 30000 }]
  - name: slow plain
    stream: false
    message: hi
    assert: [{ total-ms: 100 }, { total-ms: 30000 }]
`);
    const [, ttftTight, totalTight, ttftLoose, totalLoose] = checksOf(result, 'slow');
    // The mock waited 400 ms before answering: no clock can make the first chunk come sooner.
    expect(Number(/^(\d+) ms$/.exec(ttftTight?.actual ?? '')?.[1])).toBeGreaterThanOrEqual(400);
    expect([ttftTight?.passed, totalTight?.passed, ttftLoose?.passed, totalLoose?.passed]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const plain = checksOf(result, 'slow plain');
    expect(plain.map((c) => c.passed)).toEqual([true, false, true]);
    expect(Number(/^(\d+) ms$/.exec(plain[1]?.actual ?? '')?.[1])).toBeGreaterThanOrEqual(400);
  });
});

describe('error assertions', () => {
  test('a stopped agent, an agent in error and an oversized message, each as expected and as not', async () => {
    const result = await setup.harness.run(`
name: Errors
targets: { agents: [archivist] }
cases:
  - name: stopped
    message: hi
    assert: [{ status: 404 }, { code: agent_not_found }, { completes: false }]
  - name: stopped, unexpectedly
    message: hi
  - name: stopped, wrong status
    message: hi
    assert: [{ status: 502 }]
`);
    expect(byKind(checksOf(result, 'stopped'))).toEqual([
      ['status', true],
      ['code', true],
      ['completes', true],
    ]);
    expect(checksOf(result, 'stopped, unexpectedly')).toEqual([
      {
        kind: 'reply',
        line: 9,
        passed: false,
        expected: 'a complete stream ([DONE])',
        actual: "404 AGENT_NOT_FOUND: Agent 'archivist' is not deployed (stopped).",
      },
    ]);
    expect(checksOf(result, 'stopped, wrong status')[0]).toMatchObject({
      passed: false,
      expected: 'HTTP 502',
      actual: 'HTTP 404 AGENT_NOT_FOUND',
    });

    const others = await setup.harness.run(`
name: More errors
cases:
  - name: too big
    stream: false
    message: { fill: x, bytes: 102401 }
    assert: [{ status: 400 }, { code: BAD_REQUEST }]
`);
    // No agents named: the service's default agent answers (too big is refused before that).
    expect(byKind(checksOf(others, 'too big'))).toEqual([
      ['status', true],
      ['code', true],
    ]);
    expect(stepsOf(others)[0]?.error?.message).toMatch(/102401 bytes; the limit is 102400 bytes/);
  });

  test('ledger-bot, in error, answers 502 AGENT_ERROR', async () => {
    const result = await setup.harness.run(`
name: Ledger
targets: { agents: [ledger-bot] }
cases:
  - { name: in error, stream: false, message: hi, assert: [{ status: 502 }, { code: AGENT_ERROR }] }
`);
    expect(byKind(checksOf(result, 'in error'))).toEqual([
      ['status', true],
      ['code', true],
    ]);
  });
});

describe('session assertions', () => {
  test('remembers: helpdesk recalls the previous turn of a session or thread, not the one before', async () => {
    const result = await setup.harness.run(`
name: Memory
targets: { agents: [helpdesk] }
cases:
  - name: session
    steps:
      - message: my order is 4711
      - message: where is it?
        assert: [{ remembers: '4711' }, { remembers: { turn: 1 } }]
      - message: and the refund?
        assert: [{ remembers: { turn: 2 } }, { remembers: { turn: 1 } }]
  - name: thread
    thread: true
    steps:
      - message: refund order 4711
      - message: any news?
        assert: [{ remembers: refund order 4711 }]
`);
    const session = checksOf(result, 'session');
    expect(session.map((c) => [c.kind, c.passed])).toEqual([
      ['reply', true],
      ['reply', true],
      ['remembers', true],
      ['remembers', true],
      ['reply', true],
      ['remembers', true],
      ['remembers', false],
    ]);
    expect(session[6]).toMatchObject({
      expected: 'refers to turn 1: contains "my order is 4711"',
      actual: expect.stringContaining('Earlier you asked: \\"where is it?\\"'),
    });
    expect(byKind(checksOf(result, 'thread'))).toEqual([
      ['reply', true],
      ['reply', true],
      ['remembers', true],
    ]);
    const attempts = result.suites[0]?.cells.map((c) => c.attempts[0]);
    expect(attempts?.[0]?.sessionId).toMatch(/^suite[0-9a-f]{32}$/);
    expect(attempts?.[1]?.threadId).toMatch(/^thr_/);
  });
});
