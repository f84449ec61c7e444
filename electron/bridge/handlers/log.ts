// log:… — every request the console made, redacted, with export and "copy as curl".
import { curlForLogged } from '../../core/curl';
import type { DomainHandlers, HandlerContext } from './context';

export function logHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'log'> {
  onClose(
    core.requestLog.subscribe((event) =>
      event.type === 'added' ? emit('log:added', event.entry) : emit('log:cleared', {}),
    ),
  );
  return {
    'log:list': async () => core.requestLog.list(),
    'log:clear': async () => (core.requestLog.clear(), { cleared: true }),
    'log:export': async ({ format }) => core.requestLog.exportFile(format),
    'log:get': async ({ id }) => core.requestLog.get(id),
    'log:search': async ({ text }) => ({ ids: core.requestLog.searchBodies(text) }),
    'log:curl': async ({ id }) => ({ command: curlForLogged(core, id) }),
    'log:importHar': async ({ fileName, text }) => core.requestLog.importHar(fileName, text),
  };
}
