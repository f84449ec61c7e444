// A journal of ours read a line at a time, a chunk of the file in memory at once: a week of health
// checks is handed over line by line instead of as one string and an array of every line, whose
// peak the process would keep as heap long after the start.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { PRIVATE_READ_FLAGS } from './private-files';

const CHUNK = 64 * 1024;

/**
 * Hands each line of `file` (without its newline) to `onLine`, in order, and says whether the file
 * ends in a newline. A link in the file's place fails (isLinkRefusal), as every read of ours does.
 */
export function readPrivateLinesSync(
  file: string,
  onLine: (line: string) => void,
): { endsWithNewline: boolean } {
  const fd = openSync(file, PRIVATE_READ_FLAGS);
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(CHUNK);
    let rest = '';
    for (
      let read = readSync(fd, buffer, 0, CHUNK, null);
      read > 0;
      read = readSync(fd, buffer, 0, CHUNK, null)
    ) {
      const text = rest + decoder.write(buffer.subarray(0, read));
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        onLine(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest !== '') onLine(rest);
    return { endsWithNewline: rest === '' };
  } finally {
    closeSync(fd);
  }
}
