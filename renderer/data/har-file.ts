// A HAR file the user picked, read for log:importHar or suites:importHar: a file over the bound is
// refused here, in the core's words, before the page reads it or sends it.
import { HAR_TOO_LARGE_MESSAGE, MAX_HAR_CHARS } from '../../shared/bridge/log';

export async function readHarFile(file: File): Promise<{ fileName: string; text: string }> {
  // A character is at least a byte: a file within the bound in bytes is within it in characters.
  if (file.size > MAX_HAR_CHARS) throw new Error(HAR_TOO_LARGE_MESSAGE);
  return { fileName: file.name.slice(0, 255), text: await file.text() };
}
