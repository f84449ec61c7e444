// app:… — what the window shows about the console itself.
import type { DomainHandlers, HandlerContext } from './context';

export function appHandlers({
  core,
  transport,
  version,
  updates,
  emit,
  onClose,
}: HandlerContext): DomainHandlers<'app'> {
  onClose(updates.subscribe((status) => emit('app:updateStatus', status)));
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
    'app:updates': async () => updates.status(),
    'app:checkForUpdates': () => updates.check(),
    'app:setUpdates': async (change) => updates.configure(change),
    'app:installUpdate': async () => ({ restarting: updates.install() }),
  };
}
