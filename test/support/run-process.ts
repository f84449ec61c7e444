// A Node process run to its end with its output collected: the CLI as a user runs it (`node
// bin/agent-console.js …`) or a script under tsx, with `env` over this process's environment and
// `stdin` as its whole input (none: stdin closed at once, as at a terminal given nothing).
// `onStdout` sees the output so far on every chunk, with `interrupt` to press Ctrl+C once.
import { spawn } from 'node:child_process';

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  onStdout?: (text: string, interrupt: () => void) => void;
}

export const runNode = (args: string[], options: RunOptions = {}): Promise<ProcessRun> =>
  runProcess(process.execPath, args, options);

export function runProcess(command: string, args: string[], options: RunOptions = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    // Once, as a person presses Ctrl+C once: every later chunk of output calls onStdout again, and
    // a second SIGINT landing while the stopped command closes would end the process by the signal.
    let interrupted = false;
    const interrupt = (): void => {
      if (interrupted) return;
      interrupted = true;
      child.kill('SIGINT');
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      options.onStdout?.(stdout, interrupt);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
