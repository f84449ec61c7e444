// A reply's plain text, appended to the page as chunks arrive, without React re-rendering it: each
// frame adds one text node with that frame's chunks. Text goes into blocks of a few KB so the
// browser lays out only the last block, not the whole reply, on every frame; a block ends at a line
// break (or a space) so the seams do not show. This is what keeps a 1 MB, 20,000-chunk reply smooth,
// and it is also how a reply too long to format is shown.
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
 * And at most this much a frame, for the layout that follows. Blocks out of view skip layout
 * (content-visibility), so what a frame adds costs little beyond the text in view: at 256 KB a frame
 * a 1 MB burst took four frames to show after its last chunk (over 100 ms in the bench); at 1 MB the
 * frame after the last chunk sometimes ran over 50 ms.
 */
const FRAME_CHARS = 512 * 1024;
/**
 * The frame that mounts the text is the new reply's first layout, and in traces its blocks out of
 * view were not skipped there (24–33 ms of layout, most of a long task): it adds no more than the
 * Markdown showed before a streaming reply turned plain (reply-body.tsx: 16,000 characters), so the
 * reply never gets shorter under a reader scrolled up in it.
 */
const FIRST_FRAME_CHARS = 16 * 1024;
/** The reply font's average advance and line height (14px system-ui, line-height 1.55). */
const CHAR_WIDTH_PX = 7.2;
const LINE_HEIGHT_PX = 21.7;
/**
 * The text's width when a reply was last laid out. Not read from the page at mount: with the text
 * still empty that read lays the transcript out shorter than it was, and the browser pulls a reader
 * scrolled up in it back to the top.
 */
let knownWidth = 700;

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
    const resize = new ResizeObserver(([entry]) => {
      if (entry?.contentRect.width) knownWidth = entry.contentRect.width;
    });
    resize.observe(root);
    const newBlock = (): HTMLDivElement => {
      block = document.createElement('div');
      block.className = 'live-block';
      const lines = Math.ceil(BLOCK_CHARS / Math.max(20, knownWidth / CHAR_WIDTH_PX));
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
    const render = (limit = FRAME_CHARS): void => {
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
      while (pending !== '' && taken < limit && performance.now() - started < FRAME_MS) {
        const text = pending.slice(0, Math.min(SLICE_CHARS, limit - taken));
        taken += text.length;
        pending = pending.slice(text.length);
        shownChars += text.length;
        append(text);
      }
      root.dataset.renderedChars = String(shownChars);
      if (pending !== '') more = requestAnimationFrame(() => render());
    };
    render(FIRST_FRAME_CHARS);
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
