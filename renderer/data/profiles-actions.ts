// What the Profiles screen does with profiles: add, edit and remove one (mutations, each
// invalidating what it changed), test one's connection, and read a server's certificate. Apart from profiles.ts, which the header
// reads: the first screen's bundle carries no mutation code.
import type { BridgeInput, ConnectionTest } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useChange } from './change';
import { queryKeys } from './query-keys';

/** A key confirmed for the profile's server has that server from now on: the keys change too. */
export const useAddProfile = () =>
  useChange(
    (input: BridgeInput<'profiles:add'>) => bridge.profiles.add(input),
    [queryKeys.profiles(), queryKeys.keys()],
  );

/** A profile edited: its key may have a new server too; "Connected" must be asked again. */
export const useUpdateProfile = () =>
  useChange(
    (input: BridgeInput<'profiles:update'>) => bridge.profiles.update(input),
    [queryKeys.profiles(), queryKeys.keys(), queryKeys.connections()],
  );

/** The chain an https:// server presents (nothing sent), to check before trusting its CA. */
export const readServerCertificate = (baseUrl: string) => bridge.profiles.serverCertificate({ baseUrl });

/** Another profile active (or the active one gone): "Connected" must be asked again. */
export const useRemoveProfile = () =>
  useChange((id: string) => bridge.profiles.remove({ id }), [queryKeys.profiles(), queryKeys.connections()]);

/** The Profiles screen's "Test connection": a read, shown on the profile's card, cached nowhere. */
export function testProfile(id: string): Promise<ConnectionTest> {
  return bridge.profiles.test({ id }).catch((e: unknown): ConnectionTest => ({
    ok: false,
    durationMs: 0,
    error: { code: 'UNEXPECTED', message: String(e) },
  }));
}
