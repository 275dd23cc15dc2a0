import { describe, expect, it, vi } from 'vitest';
import { copyText } from './clipboard';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
}

describe('copyText', () => {
  it('writes through the Clipboard API', async () => {
    const writeText = vi.fn(async () => {});
    stubClipboard(writeText);
    expect(await copyText('https://panel.example/sub/abc')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('https://panel.example/sub/abc');
  });

  it('falls back to the copy command when the Clipboard API refuses, and gives focus back', async () => {
    stubClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    let selected = '';
    const execCommand = vi.fn((command: string) => {
      const area = document.querySelector('textarea');
      selected = area?.value ?? '';
      return command === 'copy';
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      expect(await copyText('the link')).toBe(true);
      expect(selected).toBe('the link');
      expect(document.querySelector('textarea')).toBeNull();
      expect(document.activeElement).toBe(button);
    } finally {
      Reflect.deleteProperty(document, 'execCommand');
      button.remove();
    }
  });

  it('says so when nothing could copy', async () => {
    stubClipboard(async () => {
      throw new Error('no');
    });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    try {
      expect(await copyText('the link')).toBe(false);
    } finally {
      Reflect.deleteProperty(document, 'execCommand');
    }
  });
});
