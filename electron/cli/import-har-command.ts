// `agent-console test import-har <file> [--dir <folder>]`: a HAR file's chats written as new suite
// files, as the Tests screen's "Import HAR as cases…" writes them (suites/har-cases.ts); no core
// is opened and nothing is sent. The file's size is checked before it is read.
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { HAR_TOO_LARGE_MESSAGE, MAX_HAR_CHARS } from '../../shared/bridge/log';
import { CoreError } from '../core/core-error';
import type { CommandContext } from './cli-session';

export async function importHarCommand(context: CommandContext, [file = '']: string[]): Promise<void> {
  const path = resolve(file);
  const size = await stat(path).then(
    (found) => found.size,
    () => {
      throw new CoreError('NOT_FOUND', `There is no file ${path} to read.`);
    },
  );
  if (size > MAX_HAR_CHARS) throw new CoreError('HAR_TOO_LARGE', HAR_TOO_LARGE_MESSAGE);
  const folder = resolve((context.options as { dir?: string }).dir ?? '.');
  const { writeHarCases } = await import('../core/suites/har-cases');
  const written = await writeHarCases(folder, basename(path), await readFile(path, 'utf8'));
  if (context.io.json) {
    context.io.out(JSON.stringify(written));
    return;
  }
  const left =
    written.skipped > 0 ? ` (${written.skipped} chat${written.skipped === 1 ? '' : 's'} left out)` : '';
  context.io.out(
    `Wrote ${written.cases} case${written.cases === 1 ? '' : 's'} to ${written.files.join(', ')}${left}: each expects its reply's first words; edit them to what matters.`,
  );
}
