import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FixtureError, FixtureStore } from '../../electron/core/fixture-store';
import { tempDir } from '../support/mock';

const KEY = 'ams_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const frames = [
  { atMs: 40, data: '{"content":"Hello "}' },
  { atMs: 55, data: 'keep-alive', comment: true },
  { atMs: 90, data: `{"content":"your key is ${KEY}"}` },
  { atMs: 120, data: '[DONE]' },
];

describe('FixtureStore', () => {
  test('saves a reply from its frames with timing, masks keys, lists, exports and re-imports it', async () => {
    const store = new FixtureStore(join(tempDir(), 'fixtures'));
    const saved = await store.saveFromFrames({ name: 'Greeting', agent: 'echo', frames });
    expect(saved).toMatchObject({ name: 'Greeting', agent: 'echo', chunkCount: 2, durationMs: 90 });
    const fixture = await store.get(saved.id);
    expect(fixture.chunks).toEqual([
      { content: 'Hello ', atMs: 40 },
      { content: expect.stringContaining('***'), atMs: 90 },
    ]);
    expect(readFileSync(join(store.dir, `${saved.id}.json`), 'utf8')).not.toContain(KEY);
    expect((await store.list()).map((f) => f.id)).toEqual([saved.id]);

    const exported = await store.exportText(saved.id);
    const other = new FixtureStore(join(tempDir(), 'fixtures'));
    const imported = await other.importText(exported.text);
    expect((await other.get(imported.id)).chunks).toEqual(fixture.chunks);
  });

  test('bad files and ids are refused with clear errors', async () => {
    const store = new FixtureStore(join(tempDir(), 'fixtures'));
    await expect(store.importText('{not json')).rejects.toThrow('is not JSON');
    await expect(store.importText('{"format":"agent-console-fixture","version":1}')).rejects.toThrow(
      'is not a fixture',
    );
    await expect(store.get('../../etc/passwd')).rejects.toBeInstanceOf(FixtureError);
    await expect(
      store.saveFromFrames({ name: 'x', agent: 'echo', frames: [{ atMs: 1, data: '[DONE]' }] }),
    ).rejects.toThrow('no chunks');
  });
});
