import { readFileSync, statSync, existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { LOG_MAX_BYTES, openAppLog } from '../../electron/core/app-log';
import { tempDir } from '../support/mock';

const KEY = 'ams_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('the app log', () => {
  test('writes lines with keys masked, errors as messages, and gives the tail', async () => {
    const log = openAppLog(tempDir());
    log.info('profile switched', { key: KEY, name: 'prod' });
    log.error(new Error(`request failed with Bearer ${KEY}`));
    await settle();
    const written = readFileSync(log.path, 'utf8');
    expect(written).toContain('profile switched');
    expect(written).toContain('request failed with Bearer');
    expect(written).not.toContain(KEY);
    expect(log.tail(1)[0]).toContain('request failed');
  });

  test('rotates: the file stays near its bound however much is written', async () => {
    const log = openAppLog(tempDir());
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 2_500; i++) log.info(line, i);
    await settle();
    expect(statSync(log.path).size).toBeLessThanOrEqual(LOG_MAX_BYTES + 4096);
    expect(existsSync(log.path.replace(/\.log$/, '.old.log'))).toBe(true);
  });
});
