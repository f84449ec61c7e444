// A real console process for the fault suite: the core as the app, the web host and the CLI open it
// (settings, keychain or session keys, transcripts, the in-process embedded mock) on the data folder
// given as AGENT_CONSOLE_DATA_DIR. Lines on stdin drive it; what the user would be shown goes to
// stdout as one line each, so the test knows exactly which chats were acknowledged:
//   chat <session> <message>    ->  ACK <session> <message>   (the reply is shown as done)
//   loop <prefix>               ->  chats forever in three sessions, one ACK line per chat
// Warnings (a write that failed, a state file set aside) go to stderr as `WARN <words>`.
import { createInterface } from 'node:readline';
import { ConsoleCore } from '../../electron/core/console-core';

const dataDir = process.env.AGENT_CONSOLE_DATA_DIR;
if (!dataDir) throw new Error('AGENT_CONSOLE_DATA_DIR is required');

const core = await ConsoleCore.open({
  dataDir,
  embeddedMock: 'discover',
  keychainService: process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE ?? `agent-console-faults-${process.pid}`,
  onWarning: (message) => process.stderr.write(`WARN ${message.replace(/\n/g, ' ')}\n`),
});
core.mock?.control.setAgent('echo', { latencyMs: 0 });
process.stdout.write('READY\n');

let turn = 0;
/** Alternates a one-document chat and a streamed one, as the CLI's --no-stream and default do. */
async function chat(session: string, message: string): Promise<void> {
  const request = { agent: 'echo', session_id: session, startedHere: true, message };
  if (turn++ % 2 === 0) {
    await core.chat.send(request);
  } else {
    const { stream, recorded } = await core.chat.stream(request);
    for await (const _chunk of stream) {
      // Read as the CLI and the bridge read it.
    }
    await recorded;
  }
  process.stdout.write(`ACK ${session} ${message}\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, a = '', ...rest] = line.split(' ');
  if (command === 'chat') await chat(a, rest.join(' '));
  else if (command === 'loop') {
    for (let i = 0; ; i++) await chat(`${a}s${i % 3}`, `message-${i}`);
  } else if (command === 'quit') break;
}
await core.close();
