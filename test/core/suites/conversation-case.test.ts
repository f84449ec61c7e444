// "Save as test case" from a recorded conversation: the helpdesk is talked to through the real
// mock and the exchange path, its record becomes a multi-turn case in a suite file, and that case,
// run against the same mock, passes. Reviews are hand-made here: a reply marked wrong with the right
// answer in its note becomes what that step expects.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Transcript } from '../../../shared/transcript';
import { factsIn, saveConversationCase } from '../../../electron/core/suites/conversation-case';
import { parseSuite } from '../../../electron/core/suites/suite-loader';
import { removeDir, tempDir } from '../../support/mock';
import { suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();
const dir = tempDir('agent-console-conversation-case-');
afterAll(() => removeDir(dir));

const MESSAGES = ['My name is Ada Lovelace and I need a refund.', 'It is order 4711.', 'Any news?'];

/** A conversation with the mock's helpdesk, recorded as the history records one. */
async function recorded(kind: 'session' | 'thread'): Promise<Transcript> {
  const { exchange, profile } = setup.harness;
  const messages: Transcript['messages'] = [];
  let threadId: string | undefined;
  const sessionId = `conv${Date.now()}`;
  for (const message of MESSAGES) {
    const reply =
      kind === 'session'
        ? await exchange.chat(profile, { message, agent: 'helpdesk', session_id: sessionId }, {})
        : threadId === undefined
          ? await exchange.createThread(profile, { message, agent: 'helpdesk' }, {})
          : await exchange.sendThread(profile, threadId, message, {});
    if ('threadId' in reply) threadId = reply.threadId as string;
    const at = new Date().toISOString();
    messages.push({ role: 'user', content: message, at, status: 'complete' });
    messages.push({ role: 'agent', content: reply.response, at, status: 'complete' });
  }
  const at = new Date().toISOString();
  return {
    profileId: 'mock',
    kind,
    id: threadId ?? sessionId,
    agent: 'helpdesk',
    ...(kind === 'thread' ? { title: 'Refund for Ada' } : {}),
    knownFrom: 'start',
    createdAt: at,
    lastActivityAt: at,
    messages,
  };
}

describe('a recorded conversation saved as a test case', () => {
  test('its user messages are the steps, with what each reply said and the facts it remembered; it passes when run', async () => {
    const file = join(dir, 'saved.yaml');
    const saved = await saveConversationCase(file, await recorded('session'));
    expect(saved.caseName).toBe('My name is Ada Lovelace and I need a refund.');
    const suite = parseSuite(readFileSync(file, 'utf8'), file);
    expect(suite.targets.agents).toEqual(['helpdesk']);
    const steps = suite.cases[0]?.steps ?? [];
    expect(steps.map((s) => s.message)).toEqual(MESSAGES);
    expect(steps.map((s) => s.checks.map((c) => [c.kind, 'text' in c ? c.text : '']))).toEqual([
      [['contains', 'Thanks for your message (#1 in this']],
      [
        ['contains', 'Thanks for your message (#2 in this'],
        ['remembers', 'Ada'],
        ['remembers', 'Lovelace'],
      ],
      // "Refund issued for order 4711." repeats the order number of turn 2.
      [
        ['contains', 'Thanks for your message (#3 in this'],
        ['remembers', '4711'],
      ],
    ]);
    const result = await setup.harness.run(readFileSync(file, 'utf8'));
    expect(result.status).toBe('passed');
    expect(result.totals).toMatchObject({ passed: 1, failed: 0 });
  });

  test('a thread is saved as a thread case with its title, and passes when run', async () => {
    const file = join(dir, 'thread.yaml');
    await saveConversationCase(file, await recorded('thread'));
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('thread: true');
    expect(parseSuite(text, file).cases[0]).toMatchObject({
      name: 'Refund for Ada',
      thread: true,
      title: 'Refund for Ada',
    });
    expect((await setup.harness.run(text)).status).toBe('passed');
  });

  test('a reply reviewed "wrong" with the right answer in its note is what that step expects', async () => {
    const transcript = await recorded('session');
    const reviews = {
      '1': { verdict: 'wrong' as const, note: 'Too slow to ask.\nShould say: Which order number is it?' },
      '3': { verdict: 'wrong' as const, note: 'Rude.' },
      '5': { verdict: 'good' as const, note: 'Correct: ignored, the reply was good' },
    };
    const plain = join(dir, 'reviewed.yaml');
    await saveConversationCase(plain, transcript, reviews);
    const steps = parseSuite(readFileSync(plain, 'utf8'), plain).cases[0]?.steps ?? [];
    expect(steps[0]?.checks).toEqual([
      expect.objectContaining({ kind: 'contains', text: 'Which order number is it?' }),
    ]);
    // Wrong with no answer given: the wrong reply is not pinned, the remembered facts still are.
    expect(steps[1]?.checks.map((c) => c.kind)).toEqual(['remembers', 'remembers']);
    expect(steps[2]?.checks[0]).toMatchObject({
      kind: 'contains',
      text: 'Thanks for your message (#3 in this',
    });
    // A suite that grades replies gets the answer as similar-to, judged by meaning.
    const graded = join(dir, 'graded.yaml');
    writeFileSync(
      graded,
      'name: Graded\ntargets: { agents: [helpdesk] }\ngrader: { agent: grader }\ncases:\n  - { name: hi, message: hi }\n',
    );
    await saveConversationCase(graded, transcript, reviews);
    const gradedSteps = parseSuite(readFileSync(graded, 'utf8'), graded).cases[1]?.steps ?? [];
    expect(gradedSteps[0]?.checks[0]).toMatchObject({
      kind: 'similar-to',
      text: 'Which order number is it?',
    });
    expect((await setup.harness.run(readFileSync(plain, 'utf8'))).status).toBe('passed');
  });

  test('a key in a review note, a masked key in the history, or no whole reply: refused in words, nothing written', async () => {
    const transcript = await recorded('session');
    const file = join(dir, 'refused.yaml');
    const key = `ams_${'Zq9'.repeat(10)}xy`;
    await expect(
      saveConversationCase(file, transcript, { '1': { verdict: 'wrong', note: `Should say: ${key}` } }),
    ).rejects.toMatchObject({
      code: 'HOLDS_SECRET',
      message: expect.stringContaining('The review note holds an API key'),
    });
    const masked = {
      ...transcript,
      messages: [
        ...transcript.messages,
        {
          role: 'user' as const,
          content: 'key ***…abcd',
          at: new Date().toISOString(),
          status: 'complete' as const,
        },
      ],
    };
    await expect(saveConversationCase(file, masked)).rejects.toMatchObject({ code: 'HOLDS_SECRET' });
    const failed = {
      ...transcript,
      messages: transcript.messages.map((m) => ({ ...m, status: 'failed' as const })),
    };
    await expect(saveConversationCase(file, failed)).rejects.toThrow(/nothing to make a test of/);
    expect(existsSync(file)).toBe(false);
  });

  test('facts: numbers and capitalised words that do not begin a sentence', () => {
    expect(factsIn('Hello. I am Grace Hopper, order 4711 on 3 May. Thanks')).toEqual([
      '4711',
      'Grace',
      'Hopper',
      'May',
    ]);
  });
});
