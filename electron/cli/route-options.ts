// Option helpers the routes share (routes.ts, test-route.ts).
import type { Option } from 'commander';

/** Repeatable options (`--agent a --agent b`) collect their values. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Values a shell may offer for an option whose own check stays in the command (and its message). */
export function offers(option: Option, values: readonly string[]): Option {
  option.argChoices = [...values];
  return option;
}
