// The transcript files of earlier versions, imported into the history database once, at the first
// start of a version that has it (docs/architecture.md, "The history database"). The files stay
// where they are; each one imported is named in the app log; one that cannot be read is named
// there too, left in place and listed as unreadable in the app, never lost. A marker in the
// database says the import is done, so it runs once whichever process (the app, the CLI) starts
// first; it runs inside one write transaction, so two starting at once do not both import.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Transcript } from '../../../shared/transcript';
import { redactSecrets } from '../redact';
import { isMissing, readTranscriptFileSync, TranscriptFileError } from '../transcript-file';
import { inTransaction, statement } from './statements';
import { insertTranscript } from './writes';

const MARKER = 'transcript-files-imported';

export interface ImportLog {
  info(line: string): void;
  warn(line: string): void;
}

function filesUnder(root: string): string[] {
  const files: string[] = [];
  let profiles: string[];
  try {
    profiles = readdirSync(root);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  for (const profile of profiles.sort()) {
    if (!profile.startsWith('profile.')) continue;
    // An atomic write's leftover temporary files end in a number, not ".json".
    for (const name of readdirSync(join(root, profile)).sort())
      if (name.endsWith('.json')) files.push(join(root, profile, name));
  }
  return files;
}

/** Written redacted by earlier versions; masked again, as nothing unmasked may reach the database. */
function masked(t: Transcript): Transcript {
  return {
    ...t,
    agent: redactSecrets(t.agent),
    ...(t.title === undefined ? {} : { title: redactSecrets(t.title) }),
    messages: t.messages.map(({ content, requestId, error, ...rest }) => ({
      ...rest,
      content: redactSecrets(content),
      ...(requestId === undefined ? {} : { requestId: redactSecrets(requestId) }),
      ...(error === undefined ? {} : { error: redactSecrets(error) }),
    })),
  };
}

/** Imports the transcript files under `root` unless that was done before. */
export function importTranscriptFiles(db: DatabaseSync, root: string, log: ImportLog): void {
  const done = (): boolean => statement(db, 'SELECT 1 FROM meta WHERE key = ?').get(MARKER) !== undefined;
  if (done()) return;
  inTransaction(db, () => {
    if (done()) return;
    const files = filesUnder(root);
    let imported = 0;
    for (const file of files) {
      try {
        const transcript = readTranscriptFileSync(root, file);
        if (!transcript) continue;
        if (insertTranscript(db, masked(transcript))) imported++;
        log.info(`History: imported ${file} (${transcript.messages.length} messages)`);
      } catch (error) {
        if (!(error instanceof TranscriptFileError)) throw error;
        statement(db, 'INSERT OR REPLACE INTO import_problems (file, problem) VALUES (?, ?)').run(
          file,
          error.message,
        );
        log.warn(`History: not imported, left as it is: ${error.message}`);
      }
    }
    statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?)').run(
      MARKER,
      JSON.stringify({ at: new Date().toISOString(), files: files.length, imported }),
    );
  });
}

/** The user removed the conversation a file could not be imported as: the file stays, unlisted. */
export function forgetImportProblem(db: DatabaseSync, file: string): boolean {
  return statement(db, 'DELETE FROM import_problems WHERE file = ?').run(file).changes > 0;
}
