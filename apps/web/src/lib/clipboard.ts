/**
 * Copies text to the clipboard: the asynchronous Clipboard API where the browser offers it (secure contexts), else
 * the older copy command on a hidden text area (a panel served over plain HTTP, some app web views). Resolves false
 * when neither worked, so that the caller can show the text for copying by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, not focused): try the older way.
    }
  }
  return copyWithCommand(text);
}

function copyWithCommand(text: string): boolean {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  // Inside an open dialog, so that its focus trap does not pull focus (and the selection) away.
  const host = focused?.closest('[role="dialog"]') ?? document.body;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', opacity: '0', pointerEvents: 'none' });
  host.append(area);
  area.select();
  let copied = false;
  try {
    copied = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    focused?.focus();
  }
  return copied;
}
