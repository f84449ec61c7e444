// zod turns each object schema into a parser compiled with `new Function` when it is made, unless
// told not to; the page's Content-Security-Policy has no 'unsafe-eval', so every try would be
// refused and logged. Imported by contract.ts before the contract's schemas are made: zod reads
// the setting as it makes each one.
import { z } from 'zod';

z.config({ jitless: true });
