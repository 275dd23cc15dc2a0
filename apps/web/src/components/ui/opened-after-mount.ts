import { useEffect, useState } from 'react';

/**
 * For a dialog or menu whose code loads when it is first opened: it mounts closed and opens right after, as if it had
 * been there all along, so that Mantine notes which control had the focus and gives it back when it closes.
 */
export function useOpenedAfterMount(opened: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return opened && mounted;
}
