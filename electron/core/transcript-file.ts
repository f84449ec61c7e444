// A transcript file as earlier versions kept each conversation, before the history database
// (history/transcript-import.ts reads them once): where it lives — <transcripts>/profile.<name>/
// <kind>.<name>.json, names that are the same on every file system — and what it holds: the
// transcript with its format and version, checked when read, and refused in words (never
// overwritten) when it is not one this version reads or sits under another transcript's name.
import { createHash } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import { z } from 'zod';
import { Transcript, TranscriptKind, type TranscriptRef } from '../../shared/transcript';
import { CoreError } from './core-error';
import { readPrivateFileSync } from './private-files';

const FORMAT = 'agent-console-transcript';
const TranscriptFile = Transcript.extend({ format: z.literal(FORMAT), version: z.literal(1) });

/** A transcript file that could not be read or written. Names the file so the user can find it. */
export class TranscriptFileError extends CoreError {
  override readonly name = 'TranscriptFileError';
  constructor(
    readonly file: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super('TRANSCRIPT_FILE', `Transcript file ${file} ${problem}`, options);
  }
}

/** The folder of a profile's transcripts under `root`. */
export function profileDir(root: string, profileId: string): string {
  if (!profileId) throw new TypeError('A transcript needs a profile id');
  return join(root, `profile.${safeName(profileId)}`);
}

/** Where the transcript lives under `root` (whether or not it exists yet). */
export function transcriptFile(root: string, ref: TranscriptRef): string {
  const kind = TranscriptKind.parse(ref.kind);
  if (!ref.profileId || !ref.id) throw new TypeError('A transcript needs a profile id and an id');
  const file = join(profileDir(root, ref.profileId), `${kind}.${safeName(ref.id)}.json`);
  // safeName cannot produce a separator or "..", so this only guards against a future edit of it.
  const inside = relative(root, file);
  if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`Refusing a path outside ${root}`);
  return file;
}

/** The file's text for a transcript. */
export function transcriptText(data: Transcript): string {
  return `${JSON.stringify({ format: FORMAT, version: 1, ...data }, null, 2)}\n`;
}

/**
 * The transcript in `file` under `root`, null when there is no such file. Throws
 * TranscriptFileError for a file it cannot read, or that is not a transcript this version reads,
 * or that holds another transcript than its name says (renamed or copied by hand).
 */
export function readTranscriptFileSync(root: string, file: string): Transcript | null {
  let text: string;
  try {
    text = readPrivateFileSync(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw new TranscriptFileError(file, 'could not be read', { cause: error });
  }
  const leftAlone = 'It was left as it is: move it away or delete the transcript to start afresh.';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TranscriptFileError(file, `is not valid JSON. ${leftAlone}`, { cause: error });
  }
  const parsed = TranscriptFile.safeParse(json);
  if (!parsed.success) {
    const why = z.prettifyError(parsed.error);
    throw new TranscriptFileError(file, `is not a transcript this version can read (${why}). ${leftAlone}`, {
      cause: parsed.error,
    });
  }
  const { format: _format, version: _version, ...data } = parsed.data;
  // A file renamed or copied by hand would otherwise be read as the wrong conversation.
  if (transcriptFile(root, data) !== file) {
    throw new TranscriptFileError(
      file,
      `holds ${data.kind} ${JSON.stringify(data.id)}, which belongs elsewhere. ${leftAlone}`,
    );
  }
  return data;
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Longest escaped name kept readable; longer ids are hashed (file names are limited to 255 bytes). */
const MAX_READABLE_NAME = 160;

/**
 * Turns an arbitrary string into one path segment that is the same on every file system: only
 * [a-z0-9._-], so no separators, no "..", no NUL, nothing a case-insensitive (macOS, Windows) or
 * normalising (macOS NFD) file system could merge. Injective, so two ids never share a file:
 *   a-z 0-9 → themselves;  A-Z → "-" + lower case;  anything else → "_" + its UTF-16 code unit in hex
 * (code units, not UTF-8, so a lone surrogate stays distinct). "e." marks this form; "h." marks the
 * SHA-256 used when the escaped form would be too long. The file's content holds the real id.
 */
function safeName(id: string): string {
  let out = 'e.';
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) out += id[i];
    else if (code >= 0x41 && code <= 0x5a) out += `-${String.fromCharCode(code + 0x20)}`;
    else out += `_${code.toString(16).padStart(4, '0')}`;
    if (out.length > MAX_READABLE_NAME) {
      return `h.${createHash('sha256').update(id, 'utf16le').digest('hex')}`;
    }
  }
  return out;
}
