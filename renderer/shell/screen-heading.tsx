// A screen's title, the page's one h1. Chosen from the sidebar, the screen takes focus here, as a
// screen-reader user expects after following a link: the title is read, and Tab goes on from the
// top of the screen rather than from the sidebar.
import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigation } from '../stores/navigation';

export function ScreenHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!useNavigation.getState().takeHeadingFocus()) return;
    heading.current?.focus();
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1} className="screen-title">
      {children}
    </h1>
  );
}
