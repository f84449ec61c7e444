// What every domain of the contract declares its calls with: the output marker, the bounded
// strings and ids every input uses, and the shape of a domain's table of calls.
import { z } from 'zod';

/**
 * A call's output type, written beside its input schema. Type-only: the value is never read (the
 * main side builds outputs, and the renderer trusts its own process's core for their shape).
 */
export const returns = <T>(): T => undefined as T;

export const id = z.string().min(1).max(200);
export const text = (max: number) => z.string().max(max);
export const none = z.strictObject({});

/** One call: the zod schema its input must pass on the main side, and its output type. */
interface CallSpec {
  input: z.ZodType;
  output: unknown;
}

/** A domain's calls, every one named `<domain>:<action>`: a call in the wrong file fails to compile. */
export type DomainCalls<D extends string> = Record<`${D}:${string}`, CallSpec>;
