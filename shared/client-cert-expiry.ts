// When a profile's client certificate is worth a warning: within CLIENT_CERT_WARNING_DAYS of its
// end, or past it. One rule for the Profiles screen and the CLI.

/** A certificate expiring within this many days is shown with a warning. */
const CLIENT_CERT_WARNING_DAYS = 14;

export interface ClientCertExpiry {
  /** Whole days left (0 on its last day; negative once expired). */
  days: number;
  state: 'valid' | 'expiring' | 'expired';
  /** "valid until 28 Nov 2027", "expires in 5 days", "expired 3 days ago". */
  words: string;
}

export function clientCertExpiry(validTo: number, now: number): ClientCertExpiry {
  const days = Math.floor((validTo - now) / 86_400_000);
  if (validTo <= now) {
    const ago = Math.max(1, -days);
    return { days, state: 'expired', words: `expired ${ago} day${ago === 1 ? '' : 's'} ago` };
  }
  if (days < CLIENT_CERT_WARNING_DAYS) {
    const left = days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`;
    return { days, state: 'expiring', words: `expires ${left}` };
  }
  const date = new Date(validTo).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return { days, state: 'valid', words: `valid until ${date}` };
}
