// How a profile's requests leave this computer: the environment's proxy variables (the default;
// in the desktop app, without them, the system's proxy settings and PAC files), directly, or
// through a proxy of its own whose password goes to the keychain, never to a file.
import type { UseFormReturn } from 'react-hook-form';
import type { ProfileInfo } from '../../../shared/bridge/profiles';
import { useAppInfo } from '../../data/app';
import type { ProfileFormValues } from './profile-form';

/** What "no proxy of its own" means where this window runs. */
function defaultProxyWords(transport: 'electron' | 'web' | undefined): string {
  return transport === 'electron'
    ? 'From the system: its proxy settings and PAC file (or HTTPS_PROXY if set)'
    : 'From the environment (HTTPS_PROXY, NO_PROXY)';
}

export function ProxyFields({
  form,
  editing,
}: {
  form: UseFormReturn<ProfileFormValues, unknown, unknown>;
  editing: ProfileInfo | undefined;
}) {
  const mode = form.watch('proxyMode');
  const transport = useAppInfo().data?.transport;
  const savedPassword =
    editing?.proxyPasswordSavedAt !== undefined && editing.proxy === form.watch('proxyUrl');
  return (
    <>
      <label>
        Proxy
        <select {...form.register('proxyMode')}>
          <option value="environment">{defaultProxyWords(transport)}</option>
          <option value="none">None: connect directly</option>
          <option value="url">This proxy…</option>
        </select>
      </label>
      {mode === 'url' ? (
        <>
          <label>
            Proxy URL
            <input
              {...form.register('proxyUrl')}
              required
              inputMode="url"
              spellCheck={false}
              placeholder="http://user@proxy.example.com:3128"
            />
          </label>
          <label>
            Proxy password
            <input
              {...form.register('proxyPassword')}
              type="password"
              autoComplete="off"
              placeholder={
                savedPassword ? 'Kept in the keychain: type to replace' : 'If the proxy asks for one'
              }
            />
          </label>
          <p className="field-hint">
            HTTPS goes through the proxy in a tunnel: it sees the server's name, never the key. The password
            is kept in the keychain.
          </p>
        </>
      ) : null}
    </>
  );
}

/** The profile card's line for its proxy. */
export function proxyFact(profile: ProfileInfo, transport: 'electron' | 'web' | undefined): string {
  if (profile.builtIn) return 'None: part of the app';
  if (profile.proxy === undefined)
    return transport === 'electron' ? 'From the system' : 'From the environment';
  if (profile.proxy === 'none') return 'None: connects directly';
  return profile.proxyPasswordSavedAt !== undefined
    ? `${profile.proxy} (password in the keychain)`
    : profile.proxy;
}
