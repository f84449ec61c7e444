// The Add a key form's values, checked as they are typed: the name and a server given, the key's
// shape in words (key-shape.ts), then what keys:add itself accepts.
import { z } from 'zod';
import { contractInput } from '../../data/contract';
import { keyShapeProblem } from './key-shape';

/** What the server field starts with, and counts as not given. */
export const SERVER_START = 'https://';

export const keyForm = z
  .object({
    name: z.string().trim().min(1),
    secret: z
      .string()
      .trim()
      .min(1)
      .superRefine((secret, context) => {
        const problem = keyShapeProblem(secret);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    baseUrl: z
      .string()
      .trim()
      .refine((url) => url !== '' && url !== SERVER_START),
    sessionOnly: z.boolean().optional(),
  })
  .pipe(contractInput('keys:add'));

export type KeyFormValues = z.input<typeof keyForm>;
