// threads:… — the active profile's threads; a new thread and a message in one are exchanges of the
// core (exchanges.ts), which records and limits them.
import type { DomainHandlers, HandlerContext } from './context';

export function threadsHandlers({ core }: HandlerContext): DomainHandlers<'threads'> {
  return {
    'threads:list': async () => core.client(core.profile()).listThreads(),
    'threads:create': async (request) => core.threads.create(request),
    'threads:send': async (request) => core.threads.send(request),
  };
}
