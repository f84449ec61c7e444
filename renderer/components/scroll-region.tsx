// A wide table's box: in a narrow window it scrolls sideways on its own rather than the page, as a
// region a screen reader announces and the keyboard reaches (Tab, then the arrow keys), with its
// scrollbar drawn even where the system shows one only while scrolling (.scroll-x).
import type { ReactNode } from 'react';

export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className ? `scroll-x ${className}` : 'scroll-x'}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
