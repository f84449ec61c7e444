// What the mock's control room acknowledges is on disk: a change made with `agent-console mock …`
// (the control path) survives the mock being killed with SIGKILL the moment the CLI answers. Real
// processes on a real folder: the mock as `agent-console mock serve` runs it, and the CLI.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, test } from 'vitest';
import type { MockState } from '../../mock/state';
import { removeDir, tempDir } from '../support/mock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test('an agent changed with `agent-console mock agent` is on disk when the CLI answers, even if the mock is killed then', async () => {
  const dataDir = tempDir('agent-console-faults-mock-ack-');
  dirs.push(dataDir);
  const env = { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir };
  const mock = spawn(process.execPath, ['bin/agent-console.js', 'mock', 'serve', '--quiet'], { env });
  try {
    const [line] = (await once(createInterface({ input: mock.stdout }), 'line')) as [string];
    expect(JSON.parse(line)).toMatchObject({ baseUrl: expect.stringMatching(/^https:/) });

    // The mock is killed as soon as the CLI prints the changed agent, before the CLI even exits.
    const cli = spawn(
      process.execPath,
      ['bin/agent-console.js', 'mock', 'agent', 'storyteller', '--latency', '4321', '--pace', '7'],
      { env },
    );
    let stderr = '';
    cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const printed = await new Promise<string>((resolve, reject) => {
      cli.stdout.once('data', (d: Buffer) => {
        mock.kill('SIGKILL');
        resolve(d.toString());
      });
      cli.once('exit', (code) => reject(new Error(`the CLI exited (${code}) without output: ${stderr}`)));
    });
    expect(JSON.parse(printed)).toMatchObject({ slug: 'storyteller', latencyMs: 4321 });
    if (mock.exitCode === null && mock.signalCode === null) await once(mock, 'exit');

    const saved = JSON.parse(readFileSync(join(dataDir, 'mock', 'mock-state.json'), 'utf8')) as MockState;
    const storyteller = saved.agents.find((a) => a.slug === 'storyteller');
    expect(storyteller?.tuning).toMatchObject({ latencyMs: 4321, chunkDelayMs: 7 });
  } finally {
    mock.kill('SIGKILL');
  }
}, 60_000);
