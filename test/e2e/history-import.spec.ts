// The first start of this version on a data folder of today's transcript files: they are imported
// into the history database and shown in the app (the Playground's sessions, the search), and the
// one that cannot be read is counted there, named in the log and left where it is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transcriptFile, transcriptText } from '../../electron/core/transcript-file';
import type { Transcript } from '../../electron/core/transcript-store';
import { expect, screenshotLightAndDark, test } from './fixtures';

function plant(root: string, transcript: Transcript | string, id: string): string {
  const file = transcriptFile(root, { profileId: 'embedded-mock', kind: 'session', id });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof transcript === 'string' ? transcript : transcriptText(transcript));
  return file;
}

function session(id: string, ask: string, reply: string, minutesAgo: number): Transcript {
  const at = (m: number): string => new Date(Date.now() - (minutesAgo - m) * 60_000).toISOString();
  return {
    profileId: 'embedded-mock',
    kind: 'session',
    id,
    agent: 'helpdesk',
    knownFrom: 'start',
    createdAt: at(0),
    lastActivityAt: at(1),
    messages: [
      { role: 'user', content: ask, at: at(0), status: 'complete' },
      { role: 'agent', content: reply, at: at(1), status: 'complete', requestId: `req_${id}` },
    ],
  };
}

test('a folder of today’s transcript files is imported at first start and shown; the unreadable one is counted and kept', async ({
  core,
  host,
  page,
}) => {
  // Written as the version before the database kept them, before the page asks for any history.
  const root = join(core.dataDir, 'transcripts', 'transcripts');
  plant(root, session('importedParcel', 'Where is my parcel?', 'It left on Monday.', 90), 'importedParcel');
  plant(
    root,
    session('importedRefund', 'Refund 4711 please', 'Refund 4711 is on its way.', 30),
    'importedRefund',
  );
  const broken = plant(root, '{"format":"agent-console-transcript","messages":[{"ro', 'importedBroken');

  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  const sidebar = page.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.getByRole('button', { name: /Refund 4711 please/ })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /Where is my parcel\?/ })).toBeVisible();
  await expect(sidebar).toContainText('1 recorded session file(s) could not be read and are not listed.');
  await screenshotLightAndDark(page, 'history-imported');

  // Opened from the sidebar with its messages, and found by the search.
  await sidebar.getByRole('button', { name: /Refund 4711 please/ }).click();
  await expect(page.getByRole('article', { name: 'Your message' })).toHaveText([/Refund 4711 please/]);
  await page.keyboard.press('Control+k');
  await page.getByRole('searchbox', { name: 'Search the recorded messages' }).fill('"refund 4711"');
  await expect(page.getByRole('dialog', { name: 'Search history' }).locator('.search-hit')).toHaveCount(2);

  // Named in the app log, and the broken file left exactly as it was.
  const log = readFileSync(join(core.dataDir, 'logs', 'agent-console.log'), 'utf8');
  expect(log).toContain('session.e.imported-parcel.json');
  expect(log).toContain(`not imported, left as it is: Transcript file ${broken}`);
  expect(readFileSync(broken, 'utf8')).toBe('{"format":"agent-console-transcript","messages":[{"ro');
});
