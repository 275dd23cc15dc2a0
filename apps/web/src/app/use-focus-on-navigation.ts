import { useEffect, useRef } from 'react';

/** How long a screen may take to show its heading (its code loading on demand) before the focus stays where it is. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a navigation inside the panel, the focus moves to the new screen's heading: a screen reader then reads where
 * the customer has arrived (only the document's title changes otherwise, which screen readers do not announce), and
 * the keyboard goes on from the top of the new screen, not from the menu entry. Not on the page's first load, which
 * starts at its top as any page does.
 */
export function useFocusOnNavigation(pathname: string): void {
  // The path shown last, not a first-run flag: React's strict mode runs a new effect twice, which is no navigation.
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    // The new screen's code may still be loading: its heading is focused once it is there.
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(giveUp);
    };
  }, [pathname]);
}

/** Focuses the screen's heading, if it shows one yet. */
function focusHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  // Focusable from script only: Tab still goes from control to control.
  heading.tabIndex = -1;
  heading.focus();
  return true;
}
