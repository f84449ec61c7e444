// The Add a profile form's values as profiles:add takes them: the CA certificate only when one was
// given, then what the contract itself accepts. The server's address is the core's to judge
// (https, except on this computer), in its words.
import { z } from 'zod';
import type { BridgeInput } from '../../../shared/bridge';
import { contractInput } from '../../data/contract';

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  keyId: string;
  caCertPem: string;
}

export const PROFILE_FORM_START: ProfileFormValues = {
  name: '',
  baseUrl: 'https://',
  keyId: '',
  caCertPem: '',
};

export const profileForm = z
  .object({ name: z.string(), baseUrl: z.string(), keyId: z.string().min(1), caCertPem: z.string() })
  .transform(({ name, baseUrl, keyId, caCertPem }): BridgeInput<'profiles:add'> => ({
    name: name.trim(),
    baseUrl: baseUrl.trim(),
    keyId,
    ...(caCertPem.trim() ? { caCertPem } : {}),
  }))
  .pipe(contractInput('profiles:add'));
