// The Add a profile form's values as profiles:add takes them: the CA certificate only when one was
// given, the proxy as the profile keeps it (its password only when one was typed), a client
// certificate only when a file was chosen, then what the
// contract itself accepts. The server's address is the core's to judge
// (https, except on this computer), in its words.
import { z } from 'zod';
import type { BridgeInput } from '../../../shared/bridge';
import { contractInput } from '../../data/contract';

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  keyId: string;
  caCertPem: string;
  /** The environment's proxy variables, none (direct), or the URL below. */
  proxyMode: 'environment' | 'none' | 'url';
  proxyUrl: string;
  proxyPassword: string;
  /** A client certificate file as read: PEM text, or a PKCS#12 file in base64. */
  clientCert: string;
  /** Its PEM key from a file of its own. */
  clientKey: string;
  clientCertPassphrase: string;
}

export const PROFILE_FORM_START: ProfileFormValues = {
  name: '',
  baseUrl: 'https://',
  keyId: '',
  caCertPem: '',
  proxyMode: 'environment',
  proxyUrl: '',
  proxyPassword: '',
  clientCert: '',
  clientKey: '',
  clientCertPassphrase: '',
};

/** A profile's proxy setting (ProfileInfo.proxy) as the form shows it. */
export function proxyFormValues(
  proxy: string | undefined,
): Pick<ProfileFormValues, 'proxyMode' | 'proxyUrl'> {
  if (proxy === undefined) return { proxyMode: 'environment', proxyUrl: '' };
  return proxy === 'none' ? { proxyMode: 'none', proxyUrl: '' } : { proxyMode: 'url', proxyUrl: proxy };
}

export const profileForm = z
  .object({
    name: z.string(),
    baseUrl: z.string(),
    keyId: z.string().min(1),
    caCertPem: z.string(),
    proxyMode: z.enum(['environment', 'none', 'url']),
    proxyUrl: z.string(),
    proxyPassword: z.string(),
    clientCert: z.string(),
    clientKey: z.string(),
    clientCertPassphrase: z.string(),
  })
  .transform(
    ({
      name,
      baseUrl,
      keyId,
      caCertPem,
      proxyMode,
      proxyUrl,
      proxyPassword,
      clientCert,
      clientKey,
      clientCertPassphrase,
    }): BridgeInput<'profiles:add'> => ({
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      keyId,
      ...(caCertPem.trim() ? { caCertPem } : {}),
      proxy: proxyMode === 'environment' ? '' : proxyMode === 'none' ? 'none' : proxyUrl.trim(),
      ...(proxyMode === 'url' && proxyPassword !== '' ? { proxyPassword } : {}),
      // The certificate only when a file was chosen: its key and passphrase belong to it.
      ...(clientCert
        ? {
            clientCert,
            ...(clientKey ? { clientKey } : {}),
            ...(clientCertPassphrase ? { clientCertPassphrase } : {}),
          }
        : {}),
    }),
  )
  .pipe(contractInput('profiles:add'));
