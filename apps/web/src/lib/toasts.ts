/**
 * The toasts on screen, as a small store that React reads through `useSyncExternalStore`. It comes with the app's
 * first load (the first toast may well say the server cannot be reached) and stays light: Mantine's notifications
 * package with its transitions weighs as much again as the login screen's budget has left.
 */
export type Toast = {
  id: number;
  message: string;
  title?: string | undefined;
  color: string;
  /** Milliseconds on screen; false keeps it until closed. */
  autoClose?: number | false | undefined;
  'data-tone'?: string;
};

export type ToastInput = Omit<Toast, 'id'>;

/** At most this many at once: a newer toast pushes the oldest off. */
const LIMIT = 3;
const DEFAULT_AUTO_CLOSE_MS = 4000;

let shown: readonly Toast[] = [];
let lastId = 0;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: readonly Toast[]) {
  shown = next;
  for (const listener of listeners) listener();
}

export const notifications = {
  show(input: ToastInput): number {
    lastId += 1;
    const toast = { ...input, id: lastId };
    for (const dropped of shown.slice(0, Math.max(0, shown.length + 1 - LIMIT))) notifications.hide(dropped.id);
    publish([...shown, toast]);
    const autoClose = input.autoClose ?? DEFAULT_AUTO_CLOSE_MS;
    if (autoClose !== false)
      timers.set(
        toast.id,
        setTimeout(() => notifications.hide(toast.id), autoClose),
      );
    return toast.id;
  },
  hide(id: number): void {
    clearTimeout(timers.get(id));
    timers.delete(id);
    if (shown.some((toast) => toast.id === id)) publish(shown.filter((toast) => toast.id !== id));
  },
  clean(): void {
    for (const toast of shown) notifications.hide(toast.id);
  },
};

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function shownToasts(): readonly Toast[] {
  return shown;
}
