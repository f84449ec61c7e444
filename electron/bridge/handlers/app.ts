// app:… — what the window shows about the console itself.
import type { DomainHandlers, HandlerContext } from './context';

export function appHandlers({ core, transport, version }: HandlerContext): DomainHandlers<'app'> {
  return {
    'app:info': async () => ({
      version,
      transport,
      platform: process.platform,
      dataDir: core.dataDir,
      keychain: core.keychain,
      warnings: [...core.startupWarnings],
    }),
    'app:diagnostics': async () => ({ text: core.diagnostics() }),
  };
}
