// A writer of reviews for the fault suite: records a conversation of 200 replies, then reviews
// them one after another, printing `ACK <index>` once each save has returned — what the app shows
// as "Saved" (argv: the folder of the history database).
import { TranscriptStore } from '../../electron/core/transcript-store';

const [folder = ''] = process.argv.slice(2);
const store = new TranscriptStore(folder);
const ref = { profileId: 'embedded-mock', kind: 'session', id: 'reviewed' } as const;
const init = { agent: 'helpdesk', knownFrom: 'start' } as const;
await store.appendAll(
  Array.from({ length: 200 }, (_, i) => ({
    ref,
    message: { role: 'agent', content: `reply ${i}`, status: 'complete' } as const,
    init,
  })),
);
process.stdout.write('READY\n');
for (let i = 0; i < 200; i++) {
  store.reviews.save('embedded-mock', { ...ref, message: i, verdict: 'wrong', labels: [], note: `ack ${i}` });
  process.stdout.write(`ACK ${i}\n`);
}
