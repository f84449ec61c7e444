// keys:… — the vault's keys as id, name, last four characters and the servers they may go to; a
// secret crosses once, inward, with the server it is for.
import { z } from 'zod';
import { id, none, returns, text, type DomainCalls } from './schemas';

export const KEYS_CALLS = {
  'keys:list': { input: none, output: returns<KeyInfo[]>() },
  'keys:add': {
    input: z.strictObject({
      name: text(200),
      secret: text(500),
      /**
       * The server the key is for (a base URL): the only one it may be sent to until the user, in
       * the Profiles screen, types the key again for another. Required: a key added here is never
       * left for the first profile to bind, which anyone holding the web host's token could add.
       */
      baseUrl: text(2000),
      sessionOnly: z.boolean().optional(),
    }),
    output: returns<KeyInfo>(),
  },
  'keys:remove': { input: z.strictObject({ id }), output: returns<{ removed: string }>() },
} as const satisfies DomainCalls<'keys'>;

export interface KeysEvents {
  'keys:changed': KeyInfo[];
}

export interface KeyInfo {
  id: string;
  name: string;
  /** `…abcd`: the only part of a secret that ever crosses the bridge. */
  last4: string;
  createdAt: string;
  tier?: number;
  storage: 'os-keychain' | 'session';
  /**
   * The servers (origins) the key may be sent to; another needs the user's confirmation. None: a
   * key added at the command line, not yet sent anywhere; its first server needs it too.
   */
  origins?: string[];
}
