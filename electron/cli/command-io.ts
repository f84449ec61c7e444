// What every CLI command is handed (its output, stdin and stop signal), and the reading of its
// options and secrets, shared by the command modules.
import { createInterface } from 'node:readline';
import { UsageError } from './output';

export interface Io {
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  stdin: NodeJS.ReadStream;
  signal: AbortSignal;
}

/** A command's options under commander's names (`--base-url` is `baseUrl`). */
export type Options = Record<string, string | string[] | boolean | undefined>;

/** `baseUrl` → `--base-url`, as the user typed it. */
const flag = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function intOption(options: Options, name: string): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag(name)} must be a whole number (got "${String(raw)}").`);
  }
  return value;
}

export function stringOption(options: Options, name: string): string | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw === '') throw new UsageError(`${flag(name)} needs a value.`);
  return raw;
}

export function print(io: Io, data: unknown, human: () => string): void {
  io.out(io.json ? JSON.stringify(data, null, 2) : human());
}

/** Reads all of stdin (a piped message or key). */
export async function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += chunk;
  return text;
}

/** Reads a secret: piped on stdin, or typed at a prompt that does not echo it. */
export async function readSecret(io: Io): Promise<string> {
  if (process.env.AGENT_CONSOLE_API_KEY) return process.env.AGENT_CONSOLE_API_KEY;
  if (!io.stdin.isTTY) return (await readStdin(io.stdin)).trim();
  const rl = createInterface({ input: io.stdin, output: process.stderr, terminal: true });
  const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (s.includes('API key')) write.call(rl, s);
  };
  const answer = await new Promise<string>((resolve) => rl.question('API key (not shown): ', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer.trim();
}
