// Which proxy a request takes, from the standard variables as a user's shell sets them: the
// scheme's own variable before all_proxy, lower case before upper, no_proxy's hosts, domains,
// addresses, CIDR ranges and ports (this computer included), and a
// variable that is not a proxy URL refused in words that name it and never its password.
import { describe, expect, test } from 'vitest';
import {
  bypassesProxy,
  proxyFromEnvironment,
  proxyFromSystem,
  ProxySettingError,
} from '../../electron/core/proxy';

const service = new URL('https://agents.example.com/api/v1/agents');
const shown = (url: string, env: Record<string, string>): string | undefined =>
  proxyFromEnvironment(new URL(url), env)?.shown;

describe('the variable that applies', () => {
  test.each([
    [{ HTTPS_PROXY: 'http://proxy.corp:3128' }, 'http://proxy.corp:3128'],
    [{ https_proxy: 'http://lower:3128', HTTPS_PROXY: 'http://upper:3128' }, 'http://lower:3128'],
    [{ ALL_PROXY: 'http://all:8080' }, 'http://all:8080'],
    [{ all_proxy: 'http://all:8080', https_proxy: 'http://https:8080' }, 'http://https:8080'],
    [{ HTTP_PROXY: 'http://plain:8080' }, undefined],
    [{ HTTPS_PROXY: 'proxy.corp:3128' }, 'http://proxy.corp:3128'],
    [{ HTTPS_PROXY: 'https://secure.corp' }, 'https://secure.corp'],
    [{ HTTPS_PROXY: '   ' }, undefined],
    [{}, undefined],
  ])('%o → %s', (env, expected) => {
    expect(shown(service.href, env)).toBe(expected);
  });

  test('http_proxy and HTTP_PROXY are for http:// targets', () => {
    expect(shown('http://intranet.corp:8080/hook', { HTTP_PROXY: 'http://plain:8080' })).toBe(
      'http://plain:8080',
    );
    expect(shown('http://intranet.corp:8080/hook', { HTTPS_PROXY: 'http://secure:8080' })).toBeUndefined();
  });

  test('credentials go to the dispatcher, never into what is shown', () => {
    const choice = proxyFromEnvironment(service, { HTTPS_PROXY: 'http://alice:s%40cret@proxy.corp:3128' });
    expect(choice?.shown).toBe('http://proxy.corp:3128');
    expect(choice?.url.username).toBe('alice');
    expect(choice?.url.password).toBe('s%40cret');
  });
});

describe('no_proxy', () => {
  const direct = (url: string, noProxy: string): boolean => bypassesProxy(new URL(url), noProxy);

  test.each([
    ['https://agents.example.com', 'agents.example.com', true],
    ['https://agents.example.com', 'example.com', true],
    ['https://agents.example.com', '.example.com', true],
    ['https://agents.example.com', '*.example.com', true],
    ['https://badexample.com', 'example.com', false],
    ['https://agents.example.com', 'other.com, example.com', true],
    ['https://agents.example.com', 'other.com example.com', true],
    ['https://agents.example.com', '*', true],
    ['https://agents.example.com', 'example.com:8443', false],
    ['https://agents.example.com:8443', 'example.com:8443', true],
    ['https://agents.example.com', 'agents.example.com:443', true],
    ['https://10.1.2.3', '10.0.0.0/8', true],
    ['https://11.1.2.3', '10.0.0.0/8', false],
    ['https://10.1.2.3', '10.1.2.3', true],
    ['https://10.1.2.3:9443', '10.1.2.3:443', false],
    ['https://[fd00::5]', 'fd00::/8', true],
    ['https://[fd00::5]:8443', '[fd00::5]:8443', true],
    ['https://[fe80::5]', 'fd00::/8', false],
    ['https://agents.example.com', '10.0.0.0/8', false],
    ['https://10.1.2.3', '10.0.0.0/99', false],
    ['https://AGENTS.EXAMPLE.COM', 'Example.Com', true],
  ])('%s with no_proxy=%s → direct %s', (url, noProxy, expected) => {
    expect(direct(url, noProxy)).toBe(expected);
  });

  test('the variable in either case', () => {
    expect(shown(service.href, { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' })).toBeUndefined();
    expect(shown(service.href, { HTTPS_PROXY: 'http://p:1', no_proxy: 'example.com' })).toBeUndefined();
    expect(shown(service.href, { HTTPS_PROXY: 'http://p:1', no_proxy: 'other.com' })).toBe('http://p:1');
  });

  test('this computer is a host like any other: through the proxy unless no_proxy names it', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    for (const url of [
      'https://127.0.0.1:4000',
      'https://localhost:4000',
      'https://[::1]:4000',
      'http://127.9.9.9',
    ]) {
      expect(shown(url, env)).toBe('http://p:1');
      expect(shown(url, { ...env, NO_PROXY: 'localhost,127.0.0.0/8,::1' })).toBeUndefined();
    }
  });

  test('a very long list is read in linear time, and matches nothing it should not', () => {
    const long = Array.from({ length: 100_000 }, (_, i) => `host${i}.internal`).join(',');
    expect(direct('https://agents.example.com', long)).toBe(false);
    expect(direct('https://host99999.internal', long)).toBe(true);
  });
});

describe('a variable that is not a proxy', () => {
  test.each([
    [{ HTTPS_PROXY: 'socks5://proxy.corp:1080' }, 'HTTPS_PROXY names a socks5 proxy'],
    [{ https_proxy: 'http://[broken' }, 'https_proxy is not a proxy URL'],
    [{ ALL_PROXY: 'ftp://files.corp' }, 'ALL_PROXY names a ftp proxy'],
  ])('%o is refused, naming the variable', (env, words) => {
    expect(() => proxyFromEnvironment(service, env)).toThrow(ProxySettingError);
    expect(() => proxyFromEnvironment(service, env)).toThrow(words);
  });

  test('the refusal never quotes a password', () => {
    let message = '';
    try {
      proxyFromEnvironment(service, { HTTPS_PROXY: 'socks5://alice:hunter2hunter2@proxy.corp:1080' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('socks5');
    expect(message).not.toContain('hunter2');
  });
});

describe("the system's proxy answer (Chromium's, from the OS settings and PAC files)", () => {
  test.each([
    ['DIRECT', undefined],
    ['', undefined],
    ['PROXY proxy.corp:8080; DIRECT', 'http://proxy.corp:8080'],
    ['HTTPS secure-proxy.corp:443', 'https://secure-proxy.corp'],
    ['PROXY [fd00::1]:3128', 'http://[fd00::1]:3128'],
  ])('%j is %s', (answer, shown) => {
    expect(proxyFromSystem(answer)?.shown).toBe(shown);
  });

  test('SOCKS is refused in words that say what to do', () => {
    expect(() => proxyFromSystem('SOCKS5 socks.corp:1080; DIRECT')).toThrow(
      "The system's proxy setting for this service is socks5 (socks.corp:1080); the console uses http:// and https:// proxies only. Set a proxy in the profile.",
    );
  });
});
