// The hostile server's HTTPS: a private CA and a server certificate it signed, made at test time the
// way the mock makes its own, trusted by a profile's CA file and nothing else.
import { makeCertificates } from '../../mock/cert';

export type TlsFiles = Awaited<ReturnType<typeof makeCertificates>>;

export function makeTls(): Promise<TlsFiles> {
  return makeCertificates('Hostile test CA');
}
