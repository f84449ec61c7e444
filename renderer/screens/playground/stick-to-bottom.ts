// Keeps a scrolling list of messages at its bottom while content arrives, the way chat apps do,
// until the user scrolls up to read. The transcript and the compare view use it.
import { useEffect, useRef, type RefObject } from 'react';
import { onFrameFlushed } from './stream-buffer';

/** Keys that scroll a focused scroller up. */
const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

interface Follow {
  /** Whether new content scrolls the view to the bottom. */
  stuck: boolean;
  /** Where our own last scroll put the view, until its scroll event comes; -1 when none is due. */
  ours: number;
}

function followToBottom(el: HTMLElement, follow: Follow): void {
  if (!follow.stuck) return;
  const before = el.scrollTop;
  el.scrollTop = el.scrollHeight;
  if (el.scrollTop !== before) follow.ours = el.scrollTop;
}

/**
 * Scrolls `ref` to the bottom on new content, unless the user scrolled away from the bottom.
 *
 * Only the user's own scrolling lets go: a wheel or touch moving up, a key that scrolls up, a drag
 * of the scroll bar. The view moves on its own as well — a long reply's blocks are laid out at their
 * real height once scrolled to, and the browser's scroll anchoring shifts the view to keep what is
 * on screen in place — and a transcript that read those moves as the user's stopped following.
 */
export function useStickToBottom(ref: RefObject<HTMLElement | null>, deps: unknown[]): void {
  const follow = useRef<Follow>({ stuck: true, ours: -1 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const state = follow.current;
    let dragging = false;
    // Only where there is somewhere to go up to: a wheel over a short transcript moves nothing, and
    // no scroll event would come to take hold of the bottom again.
    const letGo = () => {
      if (el.scrollTop > 0) state.stuck = false;
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) letGo();
    };
    let touchY = 0;
    const onTouchStart = (e: TouchEvent) => {
      touchY = e.touches[0]?.clientY ?? 0;
    };
    const onTouchMove = (e: TouchEvent) => {
      // A finger moving down the screen scrolls the content up.
      if ((e.touches[0]?.clientY ?? 0) > touchY) letGo();
    };
    // Keys scroll the focused scroller, or with nothing focused the one last clicked in: their
    // events then come from the page's body. Keys typed into a field edit it.
    const onKeyDown = (e: KeyboardEvent) => {
      if (!SCROLL_UP_KEYS.has(e.key) && !(e.key === ' ' && e.shiftKey)) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (el.contains(t) || t === document.body) letGo();
    };
    // A press on the scroller's own scroll bar, right of its content.
    const onPointerDown = (e: PointerEvent) => {
      if (e.target === el && e.offsetX >= el.clientWidth) dragging = true;
    };
    const onPointerUp = () => {
      dragging = false;
    };
    let lastTop = el.scrollTop;
    const onScroll = () => {
      const top = el.scrollTop;
      const moved = top - lastTop;
      lastTop = top;
      // Our own scroll's event can come after the user's wheel has let go: it must not take hold.
      const ours = top === state.ours;
      state.ours = -1;
      if (ours) return;
      // Reaching the bottom going down takes hold of it again; passing near it on the way up (the
      // first frames of a smooth scroll up) does not.
      const atBottom = el.scrollHeight - top - el.clientHeight < 48;
      if (atBottom && moved >= 0) state.stuck = true;
      else if (dragging && moved < 0) letGo();
    };
    const listening = new AbortController();
    const passive = { passive: true, signal: listening.signal };
    el.addEventListener('scroll', onScroll, passive);
    el.addEventListener('wheel', onWheel, passive);
    el.addEventListener('touchstart', onTouchStart, passive);
    el.addEventListener('touchmove', onTouchMove, passive);
    el.addEventListener('pointerdown', onPointerDown, { signal: listening.signal });
    window.addEventListener('pointerup', onPointerUp, { signal: listening.signal });
    document.addEventListener('keydown', onKeyDown, { signal: listening.signal });
    const unsubscribe = onFrameFlushed(() => followToBottom(el, state));
    return () => {
      listening.abort();
      unsubscribe();
    };
  }, [ref]);
  // New messages (not chunks) follow the same rule; `deps` says when there are new ones.
  useEffect(() => {
    if (ref.current) followToBottom(ref.current, follow.current);
  }, deps);
  // So does content that grows between flushes: a long reply's text added over the frames after its
  // last chunk, a reply formatted once it ends, the note under it.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const grown = new ResizeObserver(() => followToBottom(el, follow.current));
    for (const child of el.children) grown.observe(child);
    return () => grown.disconnect();
  }, [ref, ...deps]);
}
