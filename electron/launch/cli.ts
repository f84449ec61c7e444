// out/node/cli.js, what bin/agent-console.js runs: the CLI's bundle (cli.bundle.cjs) started
// through V8's code cache, kept per command (code-cache.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from './code-cache';

const command = process.argv.slice(2).find((arg) => /^[a-z][a-z-]{0,30}$/.test(arg)) ?? 'help';
runBundle(fileURLToPath(new URL('./cli.bundle.cjs', import.meta.url)), command);
