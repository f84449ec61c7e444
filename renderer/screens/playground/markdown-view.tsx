// A reply's Markdown on the page. Links never navigate the console: a click asks first, then opens
// the page outside (a new browser tab with no opener in the web host; the desktop shell routes
// window.open to the system browser).
import { memo, useMemo, type MouseEvent } from 'react';
import { linkTarget, renderMarkdown } from './markdown';

export function openLinkOutside(url: string): void {
  if (!window.confirm(`Open this link outside the console?\n\n${url}`)) return;
  window.open(url, '_blank', 'noopener,noreferrer');
}

function onClick(event: MouseEvent<HTMLDivElement>): void {
  const anchor = (event.target as Element).closest('a');
  if (!anchor) return;
  event.preventDefault();
  const url = linkTarget(anchor);
  if (url) openLinkOutside(url);
}

export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div
      className="reply-text markdown"
      data-testid="reply-text"
      data-rendered-chars={text.length}
      onClick={onClick}
      // Sanitised by renderMarkdown (marked with raw HTML escaped, then DOMPurify).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});
