// What one health check says (electron/core/health-sample.ts), against the real mock: each kind of
// failure as its status, and restarts and deploys read off consecutive reports.
import { afterEach, describe, expect, test } from 'vitest';
import { ManualClock } from '../../shared/clock';
import { ApiError } from '../../electron/core/api-error';
import type { HealthMonitor } from '../../electron/core/health-monitor';
import { statusOfFailure } from '../../electron/core/health-sample';
import { KeychainError } from '../../electron/core/secret-store';
import { clientFor, MINUTE, monitor, runCleanups, startMock, targetOf } from './health-support';

afterEach(runCleanups);

describe('what a check says', () => {
  test('statusOfFailure: no answer, a refused key, a failing service, anything else', () => {
    const e = (status: number, code: string) => new ApiError({ status, code, message: code });
    expect(statusOfFailure(e(0, 'NETWORK'))).toBe('unreachable');
    expect(statusOfFailure(e(0, 'CLIENT_TIMEOUT'))).toBe('unreachable');
    expect(statusOfFailure(e(401, 'INVALID_KEY'))).toBe('key-rejected');
    expect(statusOfFailure(e(403, 'PLAN_REQUIRED'))).toBe('key-rejected');
    expect(statusOfFailure(e(503, 'SERVICE_UNAVAILABLE'))).toBe('unhealthy');
    expect(statusOfFailure(e(200, 'INVALID_RESPONSE'))).toBe('unhealthy');
    expect(statusOfFailure(e(429, 'RATE_LIMITED'))).toBe('unknown');
    expect(statusOfFailure(new Error('boom'))).toBe('unknown');
    // The keychain not giving the key says nothing about the service.
    expect(
      statusOfFailure(new KeychainError('The system keychain did not give back the API key.', 'gone')),
    ).toBe('unknown');
  });

  test('against the mock: healthy, degraded, unhealthy, 5xx, key rejected (401 and 403), unreachable', async () => {
    const clock = new ManualClock();
    const mock = await startMock(clock);
    const pro = monitor({ clock, target: () => targetOf(clientFor(mock, clock, 'pro')) });
    const check = async (m: HealthMonitor) => (await m.checkNow()).sample;

    expect(await check(pro)).toMatchObject({ status: 'healthy', version: '1.0.0-mock' });
    mock.server.control.setHealth({ agents: 'down' });
    expect(await check(pro)).toMatchObject({ status: 'degraded', components: { agents: 'down' } });
    mock.server.control.setHealth({ gateway: 'down' });
    expect(await check(pro)).toMatchObject({
      status: 'unhealthy',
      components: { agents: 'down', gateway: 'down' },
    });
    mock.server.control.setHealth({ agents: 'operational', gateway: 'operational' });
    mock.server.control.setFaults({ failNext: { status: 503, count: 1 } });
    expect(await check(pro)).toMatchObject({ status: 'unhealthy', httpStatus: 503 });

    const revoked = monitor({ clock, target: () => targetOf(clientFor(mock, clock, 'revoked')) });
    expect(await check(revoked)).toMatchObject({
      status: 'key-rejected',
      httpStatus: 401,
      errorCode: 'INVALID_KEY',
    });
    const free = monitor({ clock, target: () => targetOf(clientFor(mock, clock, 'free')) });
    expect(await check(free)).toMatchObject({ status: 'key-rejected', httpStatus: 403 });
    expect(free.state().lastError).toMatch(/plan/i);

    const gone = clientFor(mock, clock, 'pro');
    await mock.server.close();
    const unreachable = monitor({ clock, target: () => targetOf(gone) });
    const sample = await check(unreachable);
    expect(sample).toMatchObject({ status: 'unreachable', errorCode: 'NETWORK' });
    expect(unreachable.state().lastError).toMatch(/Could not reach the service/);
  });

  test('restart (uptime went down) and deploy (version changed) are marked on the timeline', async () => {
    const clock = new ManualClock();
    const mock = await startMock(clock);
    const m = monitor({ clock, target: () => targetOf(clientFor(mock, clock, 'pro')) });
    await m.checkNow();
    await clock.advance(10 * MINUTE);
    expect((await m.checkNow()).sample).not.toHaveProperty('restart');
    await clock.advance(MINUTE);
    mock.server.control.restart();
    await clock.advance(MINUTE);
    const restarted = (await m.checkNow()).sample;
    expect(restarted).toMatchObject({ restart: true, uptimeS: 60 });
    expect(restarted).not.toHaveProperty('deploy');
    await clock.advance(MINUTE);
    mock.server.control.setVersion('1.1.0');
    const deployed = (await m.checkNow()).sample;
    expect(deployed).toMatchObject({ deploy: { from: '1.0.0-mock', to: '1.1.0' } });
    expect(deployed).not.toHaveProperty('restart');
    const marks = m.timeline('1h').marks.map((mark) => mark.kind);
    expect(marks).toEqual(['restart', 'deploy']);
  });
});
