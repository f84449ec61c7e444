#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx, so `npm install` is all it needs.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
