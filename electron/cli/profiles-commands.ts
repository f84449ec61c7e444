// `keys` and `profiles`: the keys in the OS keychain and the services each is sent to, as the
// Keys and Profiles screens keep them.
import { readFileSync, statSync } from 'node:fs';
import type { ProfileInfo } from '../../shared/bridge/profiles';
import type { ConsoleCore } from '../core/console-core';
import { addProfileConfirmed } from '../core/profile-info';
import { normaliseBaseUrl, originOf, ProfileError } from '../core/profiles';
import { containsKeyShaped } from '../core/redact';
import { table, UsageError } from './output';
import { print, readSecret, stringOption, type Io, type Options } from './command-io';

export async function keysCommand(
  core: ConsoleCore,
  sub: string | undefined,
  args: string[],
  options: Options,
  io: Io,
) {
  switch (sub) {
    case 'list':
    case undefined: {
      const keys = core.vault.list();
      return print(io, keys, () =>
        table(
          keys.map((k) => ({ ...k, tier: k.tier ? `${k.tier}/min` : '' })),
          ['id', 'name', 'last4', 'tier', 'storage', 'createdAt'],
        ),
      );
    }
    case 'add': {
      const name = stringOption(options, 'name');
      if (!name) throw new UsageError('keys add needs --name (the key is read from stdin or a prompt).');
      const keychain = await core.vault.keychainChecked();
      if (!keychain.available && !options.sessionOnly) {
        io.err(
          `${keychain.reason ?? 'No system keychain.'} Use --session-only to keep the key in memory for this run.`,
        );
      }
      const meta = await core.vault.add({
        name,
        secret: await readSecret(io),
        sessionOnly: options.sessionOnly === true,
      });
      return print(
        io,
        meta,
        () =>
          `Added key "${meta.name}" (${meta.last4}) to the ${meta.storage === 'os-keychain' ? 'OS keychain' : 'session'}.`,
      );
    }
    case 'remove': {
      const ref = args[0];
      if (!ref) throw new UsageError('keys remove needs the key id or name.');
      const key = core.vault.list().find((k) => k.id === ref || k.name.toLowerCase() === ref.toLowerCase());
      if (!key) throw new UsageError(`No key named "${ref}".`);
      await core.vault.remove(key.id);
      return print(
        io,
        { removed: key.id },
        () => `Removed key "${key.name}" from the keychain and settings.`,
      );
    }
    default:
      throw new UsageError(`Unknown keys command "${sub}": use list, add or remove.`);
  }
}

export async function profilesCommand(
  core: ConsoleCore,
  sub: string | undefined,
  args: string[],
  options: Options,
  io: Io,
) {
  switch (sub) {
    case 'list':
    case undefined: {
      const active = core.profiles.active()?.id;
      const profiles = core.profiles.list().map((p) => ({ ...p, active: p.id === active }));
      return print(io, profiles, () =>
        table(
          profiles.map((p) => ({
            ...p,
            active: p.active ? '*' : '',
            key: core.vault.get(p.keyId)?.name ?? '(missing)',
            proxy: p.proxy ?? '',
            clientCert: p.clientCert ? `${p.clientCert.subject} (until ${day(p.clientCert.validTo)})` : '',
          })),
          ['active', 'name', 'baseUrl', 'key', 'caCertPath', 'proxy', 'clientCert'],
        ),
      );
    }
    case 'add': {
      const keyRef = stringOption(options, 'key');
      // A secret typed here is in the shell's history already: refused, and not shown again.
      if (keyRef !== undefined && containsKeyShaped(keyRef)) {
        throw new UsageError(
          '--key takes the name of a key stored with `keys add`, not the key itself. What was given looks like ' +
            'an API key, so it was not used or shown; if it is a real key, remove it from your shell history, ' +
            'then add it with `agent-console keys add --name NAME` (which reads it from stdin or a prompt).',
        );
      }
      const key = core.vault
        .list()
        .find((k) => k.id === keyRef || k.name.toLowerCase() === keyRef?.toLowerCase());
      if (!key) throw new UsageError(`--key must name one of your keys (see \`keys list\`).`);
      const ca = stringOption(options, 'ca');
      const proxy = stringOption(options, 'proxy');
      const input = {
        name: stringOption(options, 'name') ?? '',
        baseUrl: stringOption(options, 'baseUrl') ?? '',
        keyId: key.id,
        ...(ca ? { caCertPath: ca } : {}),
        ...(proxy ? { proxy } : {}),
        ...clientCertFields(options),
        // Secrets come from the environment, never an argument the shell's history would keep.
        ...(proxy && process.env.AGENT_CONSOLE_PROXY_PASSWORD
          ? { proxyPassword: process.env.AGENT_CONSOLE_PROXY_PASSWORD }
          : {}),
      };
      let profile: ProfileInfo;
      try {
        // The user typed this command: a key with no server yet takes this one. Another server
        // for a key that has one needs a flag of their own.
        profile = await addProfileConfirmed(core, input, {
          originConfirmed: options.allowNewOrigin === true,
          bindFirstOrigin: true,
        });
      } catch (error) {
        if (!(error instanceof ProfileError) || error.code !== 'ORIGIN_NOT_CONFIRMED') throw error;
        throw new UsageError(
          `Key "${key.name}" was added for ${(key.origins ?? []).join(', ')}. To send it to ` +
            `${originOf(normaliseBaseUrl(input.baseUrl))} as well, add the profile with --allow-new-origin.`,
        );
      }
      // Said whenever the key may now go somewhere it could not before, so it is never silent.
      const origin = originOf(profile.baseUrl);
      if (!(key.origins ?? []).includes(origin))
        io.err(`Key "${key.name}" is now allowed to be sent to ${origin}.`);
      return print(io, profile, () => {
        const cert = profile.clientCert
          ? `, client certificate ${profile.clientCert.subject} valid until ${day(profile.clientCert.validTo)}`
          : '';
        return `Added profile "${profile.name}" (${profile.baseUrl}${cert}).`;
      });
    }
    case 'use': {
      const profile = core.profile(args[0] ?? '');
      core.profiles.use(profile.id);
      return print(io, profile, () => `Now using profile "${profile.name}".`);
    }
    case 'remove': {
      const profile = core.profile(args[0] ?? '');
      core.profiles.remove(profile.id);
      return print(io, { removed: profile.id }, () => `Removed profile "${profile.name}".`);
    }
    default:
      throw new UsageError(`Unknown profiles command "${sub}": use list, add, use or remove.`);
  }
}

/**
 * `--client-cert FILE` (PEM with its key, or PKCS#12) and `--client-key FILE` as the profile form
 * sends them: PEM as text, anything else in base64. The passphrase of a PKCS#12 file or an
 * encrypted key comes from AGENT_CONSOLE_CLIENT_CERT_PASSPHRASE.
 */
function clientCertFields(options: Options): {
  clientCert?: string;
  clientKey?: string;
  clientCertPassphrase?: string;
} {
  const certFile = stringOption(options, 'clientCert');
  const keyFile = stringOption(options, 'clientKey');
  if (certFile === undefined) {
    if (keyFile !== undefined) throw new UsageError('--client-key goes with --client-cert.');
    return {};
  }
  const passphrase = process.env.AGENT_CONSOLE_CLIENT_CERT_PASSPHRASE;
  return {
    clientCert: readCertFile(certFile, '--client-cert'),
    ...(keyFile !== undefined ? { clientKey: readCertFile(keyFile, '--client-key') } : {}),
    ...(passphrase ? { clientCertPassphrase: passphrase } : {}),
  };
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const MAX_CERT_FILE_BYTES = 256 * 1024;

function readCertFile(file: string, flag: string): string {
  let bytes: Buffer;
  try {
    if (statSync(file).size > MAX_CERT_FILE_BYTES) {
      throw new UsageError(`${flag} ${file} is over 256 KB: not a certificate or key file.`);
    }
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Could not read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`,
    );
  }
  return bytes.includes('-----BEGIN') ? bytes.toString('utf8') : bytes.toString('base64');
}
