import { API_KEY_PATTERN } from '../../../shared/api-limits';

/** Why a typed key cannot be right, in words, without repeating it; undefined when the shape is fine. */
export function keyShapeProblem(input: string): string | undefined {
  const key = input.trim();
  if (key === '') return undefined;
  if (/^bearer\s/i.test(key)) return 'Paste the key alone, without “Bearer ”.';
  if (/\s/.test(key)) return 'A key has no spaces inside it.';
  if (key.length !== 36) return `A key is 36 characters long; this is ${key.length}.`;
  if (key[3] !== '_') return 'A key has an underscore as its 4th character.';
  if (!API_KEY_PATTERN.test(key)) return 'A key has only letters and digits around the underscore.';
  return undefined;
}
