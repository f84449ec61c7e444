import { useConfirm } from '../../components/confirm-dialog';
import { downloadText } from '../../components/download';
import { exportFixture, useFixtures } from '../../data/mock';
import { useImportFixture, useRemoveFixture } from '../../data/mock-actions';
import type { PanelProps } from './chaos-panel';
import { ScrollRegion } from '../../components/scroll-region';

/** Recorded replies in the data folder: saved from the Playground ("Save as fixture"), or imported. */
export function FixturesPanel({ act }: Pick<PanelProps, 'act'>) {
  const fixtures = useFixtures();
  const importFixture = useImportFixture();
  const removeFixture = useRemoveFixture();
  const [confirmDialog, confirm] = useConfirm();
  return (
    <section className="card" aria-label="Fixtures">
      {confirmDialog}
      <div className="mock-head">
        <h2>Recorded replies</h2>
        <label className="file">
          Import…{' '}
          <input
            type="file"
            accept=".json"
            aria-label="Import a fixture"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (file) await act(async () => importFixture.mutateAsync(await file.text()));
            }}
          />
        </label>
      </div>
      {fixtures.data?.length === 0 ? (
        <p className="muted">None yet. Stream a reply in the Playground and choose “Save as fixture”.</p>
      ) : (
        <ScrollRegion label="Fixtures table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">From</th>
                <th scope="col">Chunks</th>
                <th scope="col">Duration</th>
                <th scope="col">Recorded</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {fixtures.data?.map((f) => (
                <tr key={f.id} aria-label={`Fixture ${f.name}`}>
                  <td>{f.name}</td>
                  <td>{f.agent}</td>
                  <td>{f.chunkCount}</td>
                  <td>{f.durationMs} ms</td>
                  <td>{new Date(f.recordedAt).toLocaleString()}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="link"
                      onClick={() =>
                        void act(async () => {
                          const { fileName, text } = await exportFixture(f.id);
                          downloadText(fileName, text, 'application/json');
                        })
                      }
                    >
                      Export
                    </button>
                    <button
                      type="button"
                      className="link"
                      aria-label={`Remove fixture ${f.name}`}
                      onClick={() =>
                        confirm(
                          {
                            title: `Remove the recorded reply “${f.name}”?`,
                            body: `This deletes its ${f.chunkCount} recorded chunks from the data folder; an agent replaying it goes back to its own replies. Export it first to keep a copy.`,
                            confirmLabel: 'Remove the recording',
                            destructive: true,
                          },
                          () => act(() => removeFixture.mutateAsync(f.id)),
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
