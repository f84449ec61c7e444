// log:… — every request the console made, redacted, with export and "copy as curl".
import type { RequestLogEntry } from '../../../shared/request-log-entry';
import { CoreError } from '../../core/core-error';
import { curlFor } from '../curl';
import type { DomainHandlers, HandlerContext } from './context';

export function logHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'log'> {
  onClose(
    core.requestLog.subscribe((event) => {
      if (event.type === 'added') emit('log:added', event.entry);
      else emit('log:cleared', {});
    }),
  );
  function entryById(id: string): RequestLogEntry {
    const entry = core.requestLog.list().find((e: RequestLogEntry) => e.id === id);
    if (!entry) throw new CoreError('NOT_FOUND', 'That request is no longer in the log.');
    return entry;
  }
  return {
    'log:list': async () => core.requestLog.list(),
    'log:clear': async () => {
      core.requestLog.clear();
      return { cleared: true };
    },
    'log:export': async ({ format }) => {
      const stamp = new Date(core.clock.now()).toISOString().replaceAll(':', '-').slice(0, 19);
      return format === 'har'
        ? { fileName: `agent-console-${stamp}.har`, text: core.requestLog.exportHar() }
        : { fileName: `agent-console-${stamp}.json`, text: core.requestLog.exportJson() };
    },
    'log:get': async ({ id }) => entryById(id),
    'log:curl': async ({ id }) => {
      const entry = entryById(id);
      return { command: curlFor(entry, core.profiles.get(entry.profileId)?.caCertPath) };
    },
  };
}
