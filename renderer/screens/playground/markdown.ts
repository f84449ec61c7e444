// Replies as Markdown, safely: an agent's text is untrusted. marked turns it into HTML with raw
// HTML written out as text and images as plain links (no remote content), then
// DOMPurify keeps only the tags Markdown produces, as a second lock should marked ever let one
// through. Links are opened by the view, after the user confirms (markdown-view.tsx).
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../../shared/html-text';

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // `<script>` typed by an agent is shown as the text `<script>`, never as an element.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    image({ href, text }: Tokens.Image) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

const ALLOWED_TAGS = [
  'a',
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'input',
];
const ALLOWED_ATTR = ['href', 'title', 'align', 'type', 'checked', 'disabled', 'start'];
/** Links a person may open from a reply; anything else (javascript:, file:, data:) is dropped. */
const SAFE_LINK = /^(?:https?:|mailto:)/i;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_LINK.test(href)) node.removeAttribute('href');
  }
  // Task-list checkboxes are shown, never toggled.
  if (node.tagName === 'INPUT' && node.getAttribute('type') !== 'checkbox') node.remove();
});

/**
 * Block quotes nested deeper than this are not parsed at all. marked recurses once per `>` of a
 * block quote, so whether a deep one overflows the stack depends on the engine's stack size;
 * deciding up front makes the outcome the same everywhere. No reply a person reads nests this deep.
 */
const MAX_QUOTE_DEPTH = 100;
const quoteDepth = (line: string): number => (/^(?:[ \t]*>)*/.exec(line)?.[0] ?? '').split('>').length - 1;

/**
 * Sanitised HTML for a reply's Markdown; undefined when the parser gives up on it (quotes nested
 * too deep, or anything else that makes marked throw): the reply is then shown as plain text, as
 * it came.
 */
export function renderMarkdown(text: string): string | undefined {
  if (text.split('\n').some((line) => quoteDepth(line) > MAX_QUOTE_DEPTH)) return undefined;
  let html: string;
  try {
    html = marked.parse(text) as string;
  } catch {
    return undefined;
  }
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR });
}

/** The URL a click in rendered Markdown would open, if it is one we allow. */
export function linkTarget(element: Element | null): string | undefined {
  const anchor = element?.closest('a');
  const href = anchor?.getAttribute('href');
  return href && SAFE_LINK.test(href) ? href : undefined;
}
