// "Import HAR as cases…": a HAR file's chats written as new suite files into the open folder (one
// case per chat, its reply's first words expected); the folder's watcher then lists them.
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { FileButton } from '../../components/file-button';
import { importHarCases } from '../../data/suites';

export function HarCasesButton() {
  const [error, setError] = useState<unknown>();
  const [note, setNote] = useState<string>();
  async function onFile(file: File) {
    setError(undefined);
    setNote(undefined);
    try {
      const { files, cases, skipped } = await importHarCases(file);
      const left =
        skipped > 0
          ? ` ${skipped} chat${skipped === 1 ? '' : 's'} without a whole reply (or with a secret in it) left out.`
          : '';
      setNote(
        `Wrote ${cases} case${cases === 1 ? '' : 's'} from ${file.name} to ${files.join(', ')}: each expects its reply’s first words, as it did then — edit them to what matters.${left}`,
      );
    } catch (e) {
      setError(e);
    }
  }
  return (
    <div className="tests-import">
      <FileButton
        label="Import HAR as cases…"
        accept=".har,application/json"

        onFile={(f) => void onFile(f)}
      />
      {note ? (
        <p className="note tests-import-note" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} title="Nothing was imported." /> : null}
    </div>
  );
}
