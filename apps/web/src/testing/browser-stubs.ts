import { onTestFinished, vi } from 'vitest';

/**
 * Records what the code writes to document.cookie (happy-dom keeps only cookies whose path matches the page, and the
 * checkout cookie's path is /shopDetails). Undone when the test ends.
 */
export function recordCookieWrites(): string[] {
  const writes: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => descriptor?.get?.call(document),
    set: (value: string) => {
      writes.push(value);
      descriptor?.set?.call(document, value);
    },
  });
  onTestFinished(() => {
    Reflect.deleteProperty(document, 'cookie');
  });
  return writes;
}

/** window.open that opens nothing and reports a tab, as a browser that allows the pop-up. */
export function stubWindowOpen() {
  return vi.spyOn(window, 'open').mockReturnValue({} as Window);
}
