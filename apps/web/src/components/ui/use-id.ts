import { useId as useReactId } from 'react';

/**
 * What the build puts in place of @mantine/hooks' `useId` (vite.config.ts, `mantineIdsInOneRender`): the id given, or
 * one from React's `useId`, unique within the page's one root and the same on every render. Mantine's own takes
 * React's id first and then, in a layout effect on mount, a random one in its place (for pages rendered on a server,
 * whose ids the browser's would not match): every field, label and menu rendered a second time as a screen first
 * shows, synchronously, in the long task after the first commit. The panel renders only in the browser.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId}`;
}
