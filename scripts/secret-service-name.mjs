// Whether some program owns org.freedesktop.secrets on a D-Bus session bus (default: this
// process's). NameHasOwner never starts a service, unlike a call to the name itself. Used by
// `npm test` (scripts/test.mjs) and by the tests' private Secret Service (test/support).
import { spawnSync } from 'node:child_process';

/** @param {string | undefined} [address] a DBUS_SESSION_BUS_ADDRESS; this process's when omitted */
export function secretServiceOwned(address) {
  const reply = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      'string:org.freedesktop.secrets',
    ],
    {
      env: address === undefined ? process.env : { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
      encoding: 'utf8',
    },
  );
  return /boolean true/.test(reply.stdout ?? '');
}
