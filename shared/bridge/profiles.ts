// profiles:… — which service, with which key and CA; the active one is what every screen uses.
import { z } from 'zod';
import type { ReceivedHealthReport as HealthReport } from '../received';
import type { BridgeError } from './result';
import { id, none, returns, text, type DomainCalls } from './schemas';

export const PROFILES_CALLS = {
  'profiles:list': { input: none, output: returns<ProfileInfo[]>() },
  'profiles:add': {
    input: z.strictObject({
      name: text(200),
      baseUrl: text(2000),
      keyId: id,
      /** PEM text of a CA certificate to trust (pasted or read from a file by the renderer). */
      caCertPem: text(1_000_000).optional(),
      /**
       * The key typed again: the user's confirmation that it may go to this origin, new to it or
       * the first it has. Only the user has it; the web host's token alone cannot confirm.
       */
      confirmKey: text(200).optional(),
    }),
    output: returns<ProfileInfo>(),
  },
  'profiles:remove': { input: z.strictObject({ id }), output: returns<{ removed: string }>() },
  'profiles:use': { input: z.strictObject({ id }), output: returns<ProfileInfo>() },
  /** Calls GET /health with the profile and reports what happened. */
  'profiles:test': { input: z.strictObject({ id }), output: returns<ConnectionTest>() },
} as const satisfies DomainCalls<'profiles'>;

export interface ProfilesEvents {
  'profiles:changed': ProfileInfo[];
}

export interface ProfileInfo {
  id: string;
  name: string;
  baseUrl: string;
  keyId: string;
  caCertPath?: string;
  builtIn: boolean;
  active: boolean;
}

export interface ConnectionTest {
  ok: boolean;
  durationMs: number;
  health?: HealthReport;
  error?: BridgeError;
}
