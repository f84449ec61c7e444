// The contract's input schemas, for the forms that check what they send against the very schema
// the core checks it with. Only the forms' screens import this (chunks of their own), so the
// first screen loads no zod.
import './zod-jitless';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { BRIDGE_CALLS, type BridgeCall } from '../../shared/bridge';

export const contractInput = <C extends BridgeCall>(call: C): (typeof BRIDGE_CALLS)[C]['input'] =>
  BRIDGE_CALLS[call].input;

/**
 * The contract's bounds in the console's words: a form's own rules word what a person meets first,
 * and these what the contract checks besides (zod's default wording otherwise).
 */
function contractIssueWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_big':
      return `At most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}.`;
    case 'too_small':
      if (issue.origin !== 'string') return `At least ${String(issue.minimum)}.`;
      return Number(issue.minimum) <= 1 ? 'Required.' : `At least ${String(issue.minimum)} characters.`;
    case 'invalid_type':
      return issue.expected === 'number' || issue.expected === 'int' ? 'A whole number.' : 'Required.';
    default:
      return undefined;
  }
}

/** A form's resolver: its schema, with the contract's issues in the console's words. */
export const formResolver = <Input extends FieldValues, Output>(schema: z.ZodType<Output, Input>) =>
  zodResolver(schema, { error: contractIssueWords });
