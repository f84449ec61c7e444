// The text of one reply, formatted or raw. While it streams it re-renders at most once per frame
// (the buffer's version), and only this reply does. Markdown is parsed whole on each frame only
// while the reply is small; past that it streams as plain text (live-text.tsx) and is formatted once
// at the end, and a reply too long to format in one go stays plain (no main-thread task over 50 ms).
import { useSyncExternalStore } from 'react';
import { LiveText } from './live-text';
import { MarkdownView } from './markdown-view';
import type { StreamBuffer } from './stream-buffer';

/** Up to this size a streaming reply is re-formatted on each frame (about a millisecond). */
const LIVE_MARKDOWN_CHARS = 16_000;
/** Up to this size a finished reply is formatted as Markdown. */
const FINAL_MARKDOWN_CHARS = 128_000;

export function useBufferVersion(buffer: StreamBuffer): number {
  return useSyncExternalStore(buffer.subscribe, buffer.getVersion);
}

export function ReplyBody({
  buffer,
  finished,
  raw,
}: {
  buffer: StreamBuffer;
  finished: boolean;
  raw: boolean;
}) {
  useBufferVersion(buffer);
  const size = buffer.length;
  if (size === 0) return null;
  const plainOnly = size > (finished ? FINAL_MARKDOWN_CHARS : LIVE_MARKDOWN_CHARS);
  if (plainOnly) {
    return (
      <>
        <LiveText buffer={buffer} />
        {finished && !raw ? (
          <p className="reply-note muted">
            Shown as plain text: at {(size / 1024).toFixed(0)} KB this reply is too long to format.
          </p>
        ) : null}
      </>
    );
  }
  const text = buffer.text();
  return raw ? (
    <pre className="reply-text reply-raw" data-testid="reply-text" data-rendered-chars={text.length}>
      {text}
    </pre>
  ) : (
    <MarkdownView text={text} />
  );
}
