// The layout check every screen passes at every window size: what a user cannot reach or read is
// a problem, wherever it is. Run in the page; returns one line per problem (none when all is well).
//
// - The page scrolling sideways, or a box in it (a table, a row of columns) scrolling sideways:
//   where scrollbars show only while scrolling (macOS) nothing says part of it is out of sight.
//   Only a scroll region made for it may (role="region", a label, tabIndex 0: the .scroll-x box).
// - A control (button, link, field, anything focusable) clipped by an ancestor that hides its
//   overflow, or covered by another element where it is in view.
// - Text cut short (more text than box, its overflow hidden or ellipsised) with no title holding
//   the whole of it.
// - A word broken across two lines inside a control or a table header ("Assertio/n").
import type { Page } from '@playwright/test';

export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    /** How a problem names an element: its tag, its class and its text, enough to find it. */
    const describe = (element: Element): string => {
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      const label = element.getAttribute('aria-label') ?? element.getAttribute('name') ?? '';
      const cls = typeof element.className === 'string' ? element.className.trim().split(/\s+/)[0] : '';
      return `<${element.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> "${text || label}"`;
    };
    const shown = (element: Element): boolean => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
      // Hidden for the eye, kept for screen readers (.visually-hidden, a native control styled away).
      if (box.width <= 1 || box.height <= 1) return false;
      return element.closest('[hidden], [aria-hidden="true"], .visually-hidden') === null;
    };
    const hides = (value: string) => value === 'hidden' || value === 'clip';
    const scrolls = (value: string) => value === 'auto' || value === 'scroll';
    // A pixel either way is rounding, not clipping.
    const SLACK = 1;
    const everything = [...document.querySelectorAll<HTMLElement>('header *, nav *, main *')];

    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + SLACK) {
      // Named by the innermost element past the window's edge that no box of its own clips.
      const clippedWithin = (e: Element) => {
        for (let up = e.parentElement; up && up !== document.body; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return true;
        return false;
      };
      const past = everything.filter(
        (e) => e.getBoundingClientRect().right > root.clientWidth + SLACK && !clippedWithin(e),
      );
      const culprit = past.find((e) => ![...e.children].some((c) => past.includes(c as HTMLElement)));
      problems.push(
        `the page scrolls sideways: ${root.scrollWidth}px wide in a ${root.clientWidth}px window` +
          (culprit ? `, past its edge: ${describe(culprit)}` : ''),
      );
    }

    for (const element of everything) {
      if (element.matches('pre, pre *, textarea, input, select, .code') || !shown(element)) continue;
      // A region announced as one, reached from the keyboard, whose scrollbar the page draws.
      if (element.matches('[role="region"][aria-label][tabindex="0"]')) continue;
      if (!scrolls(getComputedStyle(element).overflowX)) continue;
      if (element.scrollWidth > element.clientWidth + SLACK)
        problems.push(
          `${describe(element)} scrolls sideways: ${element.scrollWidth}px of content in ${element.clientWidth}px`,
        );
    }

    const controls = document.querySelectorAll<HTMLElement>(
      'main button, main a[href], main input, main select, main textarea, main summary,' +
        'main [tabindex]:not([tabindex="-1"]), header button, header a[href], header select, header input, nav a[href]',
    );
    for (const control of controls) {
      if (!shown(control)) continue;
      const box = control.getBoundingClientRect();
      const middleX = box.left + box.width / 2;
      const middleY = box.top + box.height / 2;
      // Each ancestor that hides overflow cuts the box; one that scrolls lets the user reach it.
      let clipped: Element | undefined;
      let scrolledAway = middleX < 0 || middleY < 0 || middleX > innerWidth || middleY > innerHeight;
      for (let up = control.parentElement; up && up !== document.body && !clipped; up = up.parentElement) {
        const style = getComputedStyle(up);
        const edge = up.getBoundingClientRect();
        const left = edge.left + up.clientLeft;
        const top = edge.top + up.clientTop;
        const right = left + up.clientWidth;
        const bottom = top + up.clientHeight;
        const outX = box.left < left - SLACK || box.right > right + SLACK;
        const outY = box.top < top - SLACK || box.bottom > bottom + SLACK;
        if ((outX && hides(style.overflowX)) || (outY && hides(style.overflowY))) clipped = up;
        if (scrolls(style.overflowX) || scrolls(style.overflowY))
          scrolledAway ||= middleX < left || middleX > right || middleY < top || middleY > bottom;
      }
      if (clipped) problems.push(`${describe(control)} is clipped by ${describe(clipped)}`);
      if (clipped || scrolledAway) continue;
      // Covered: what the pointer would hit at the middle of the control is something else.
      const hit = document.elementFromPoint(middleX, middleY);
      const labels = [...((control as HTMLInputElement).labels ?? [])];
      if (hit && !control.contains(hit) && !hit.contains(control) && !labels.some((l) => l.contains(hit)))
        problems.push(`${describe(control)} is covered by ${describe(hit)}`);
    }

    for (const element of everything) {
      if (element.scrollWidth <= element.clientWidth + SLACK || element.clientWidth === 0) continue;
      // A field scrolls what is typed in it.
      if (element.matches('input, textarea, select') || !shown(element)) continue;
      const style = getComputedStyle(element);
      if (scrolls(style.overflowX) || !(hides(style.overflowX) || style.textOverflow === 'ellipsis'))
        continue;
      if (element.closest('[title]') || element.querySelector('[title]')) continue;
      problems.push(
        `${describe(element)} is cut short (${element.scrollWidth}px of text in ${element.clientWidth}px)`,
      );
    }

    for (const element of document.querySelectorAll<HTMLElement>(
      'main th, main button, header button, header a, nav a, main label, main .badge, header .badge',
    )) {
      if (!shown(element)) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          if (new Set(rects.map((r) => Math.round(r.top))).size > 1)
            problems.push(`${describe(element)} breaks the word "${match[0]}" across lines`);
        }
      }
    }
    return problems;
  });
}
