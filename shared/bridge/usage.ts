// usage:… — the active profile's usage report.
import { z } from 'zod';
import type { ReceivedUsageReport as UsageReport } from '../received';
import { returns, type DomainCalls } from './schemas';

export const USAGE_CALLS = {
  'usage:get': {
    input: z.strictObject({ days: z.number().int().optional() }),
    output: returns<UsageReport>(),
  },
} as const satisfies DomainCalls<'usage'>;
