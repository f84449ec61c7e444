// Types for the undici modules electron/core/http-agent.ts imports one by one: undici's own types,
// which describe what its index exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const agent: typeof Agent;
  export = agent;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import type { ProxyAgent } from 'undici';
  const proxyAgent: typeof ProxyAgent;
  export = proxyAgent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';
  const dispatcher: typeof Dispatcher;
  export = dispatcher;
}
declare module 'undici/lib/api/index.js' {
  const api: Record<'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect', (...args: never[]) => unknown>;
  export = api;
}
declare module 'undici/lib/core/errors.js' {
  import type { errors } from 'undici';
  const all: typeof errors;
  export = all;
}
