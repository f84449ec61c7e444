// A reply's Markdown on the page. Links never navigate the console: a click asks first (the app's
// dialog, with the whole address), then opens the page outside (a new browser tab with no opener in the web host; the desktop shell routes
// window.open to the system browser).
// marked and DOMPurify are loaded with the first reply that needs them, not with the first screen:
// until they are in, the reply shows as plain text.
import { memo, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { useConfirm } from '../../components/confirm-dialog';
import type * as Markdown from './markdown';

type MarkdownModule = typeof Markdown;
let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;
function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import('./markdown').then((module) => (loaded = module));
  return loading;
}

function useMarkdown(): MarkdownModule | undefined {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    void loadMarkdown().then((m) => live && setModule(m));
    return () => {
      live = false;
    };
  }, [module]);
  return module;
}

export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  const markdown = useMarkdown();
  const [confirmDialog, confirm] = useConfirm();
  function onClick(event: MouseEvent<HTMLDivElement>): void {
    const anchor = (event.target as Element).closest('a');
    if (!anchor || !loaded) return;
    event.preventDefault();
    const url = loaded.linkTarget(anchor);
    if (!url) return;
    confirm(
      {
        title: 'Open this link outside the console?',
        body: (
          <p>
            It opens in your browser: <code data-testid="link-url">{url}</code>
          </p>
        ),
        confirmLabel: 'Open link',
      },
      () => window.open(url, '_blank', 'noopener,noreferrer'),
    );
  }
  // Undefined until marked is loaded, and for a reply it cannot parse: both are shown as plain text.
  const html = useMemo(() => markdown?.renderMarkdown(text), [markdown, text]);
  if (html === undefined)
    return (
      <div className="reply-text plain" data-testid="reply-text" data-rendered-chars={text.length}>
        {text}
      </div>
    );
  return (
    <>
      <div
        className="reply-text markdown"
        data-testid="reply-text"
        data-rendered-chars={text.length}
        onClick={onClick}
        // Sanitised by renderMarkdown (marked with raw HTML escaped, then DOMPurify).
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {confirmDialog}
    </>
  );
});
