// A reply's plain text, appended to the page as chunks arrive, without React re-rendering it: each
// frame adds one text node with that frame's chunks. Text goes into blocks of a few KB so the
// browser lays out only the last block, not the whole reply, on every frame; a block ends at a line
// break (or a space) so the seams do not show. This is what keeps a 1 MB, 20,000-chunk reply smooth
// (DESIGN.md §5), and it is also how a reply too long to format is shown.
import { memo, useLayoutEffect, useRef } from 'react';
import type { StreamBuffer } from './stream-buffer';

const BLOCK_CHARS = 4096;
/**
 * New text is added in slices of this many characters for at most FRAME_MS a frame: when a burst
 * arrives faster than that (a fast service, or the mock, sends a 1 MB reply in a blink), the rest
 * follows on the next frames instead of one long frame.
 */
const SLICE_CHARS = 32 * 1024;
const FRAME_MS = 12;
/**
 * The frame that mounts the text also commits React's render of the reply and lays out the page
 * around it for the first time: it adds less, so that frame stays well under 50 ms too.
 */
const FIRST_FRAME_MS = 4;
/**
 * And at most this much a frame. The layout that follows costs what comes into view, not what was
 * added: blocks out of view are skipped (content-visibility), so 1 MB of new blocks lays out in a
 * few ms. At 256 KB a frame, a 1 MB burst took four frames to show, over 100 ms (bench).
 */
const FRAME_CHARS = 1024 * 1024;
/** The reply font's average advance and line height (14px system-ui, line-height 1.55). */
const CHAR_WIDTH_PX = 7.2;
const LINE_HEIGHT_PX = 21.7;

export const LiveText = memo(function LiveText({ buffer }: { buffer: StreamBuffer }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    root.replaceChildren();
    let takenChunks = 0;
    let pending = '';
    let shownChars = 0;
    let block: HTMLDivElement | undefined;
    let blockChars = 0;
    let more: number | undefined;
    // Blocks off screen skip layout and paint (content-visibility: auto in playground.css); until
    // one is first laid out, this estimate of a full block's height stands in for it.
    let width = root.clientWidth || 700;
    const resize = new ResizeObserver(([entry]) => {
      if (entry) width = entry.contentRect.width || width;
    });
    resize.observe(root);
    const newBlock = (): HTMLDivElement => {
      block = document.createElement('div');
      block.className = 'live-block';
      const lines = Math.ceil(BLOCK_CHARS / Math.max(20, width / CHAR_WIDTH_PX));
      block.style.containIntrinsicSize = `auto ${lines * LINE_HEIGHT_PX}px`;
      root.append(block);
      blockChars = 0;
      return block;
    };
    const append = (text: string): void => {
      while (text !== '') {
        const target = block ?? newBlock();
        const room = BLOCK_CHARS - blockChars;
        if (text.length <= room) {
          target.append(text);
          blockChars += text.length;
          return;
        }
        // Close this block at the last line break in reach, else the last space, else anywhere.
        const reach = text.slice(0, room + 1);
        let cut = reach.lastIndexOf('\n') + 1;
        if (cut === 0) cut = reach.lastIndexOf(' ') + 1;
        if (cut === 0) cut = blockChars === 0 ? room : 0;
        if (cut > 0) target.append(text.slice(0, cut));
        text = text.slice(cut);
        newBlock();
      }
    };
    const render = (budgetMs = FRAME_MS): void => {
      more = undefined;
      if (buffer.chunks.length < takenChunks) {
        // The buffer was cleared (a retry): start over.
        root.replaceChildren();
        block = undefined;
        takenChunks = 0;
        pending = '';
        shownChars = 0;
      }
      if (buffer.chunks.length > takenChunks) {
        pending += buffer.chunks.slice(takenChunks).join('');
        takenChunks = buffer.chunks.length;
      }
      const started = performance.now();
      let taken = 0;
      while (pending !== '' && taken < FRAME_CHARS && performance.now() - started < budgetMs) {
        const text = pending.slice(0, SLICE_CHARS);
        taken += text.length;
        pending = pending.slice(text.length);
        shownChars += text.length;
        append(text);
      }
      root.dataset.renderedChars = String(shownChars);
      if (pending !== '') more = requestAnimationFrame(() => render());
    };
    render(FIRST_FRAME_MS);
    const unsubscribe = buffer.subscribe(() => {
      if (more === undefined) render();
    });
    return () => {
      unsubscribe();
      resize.disconnect();
      if (more !== undefined) cancelAnimationFrame(more);
    };
  }, [buffer]);
  return <div ref={ref} className="reply-text live-text" data-testid="reply-text" />;
});
