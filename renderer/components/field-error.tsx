// What a form's check found wrong with one field, under it, in words; nothing when it is fine. A
// field holding a list (a comma-separated one) may have its problem on one item: the first is said.

function firstMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string') return message;
  for (const [key, nested] of Object.entries(error)) {
    // A form library's error also points at its element: not a place to look for words.
    if (key === 'ref') continue;
    const found = firstMessage(nested);
    if (found) return found;
  }
  return undefined;
}

export function FieldError({ error }: { error: unknown }) {
  const message = firstMessage(error);
  return message ? (
    <span className="field-error" aria-live="polite">
      {message}
    </span>
  ) : null;
}
