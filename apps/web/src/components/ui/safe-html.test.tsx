import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { SafeHtml, sanitizeHtml } from './safe-html';

describe('sanitizeHtml', () => {
  it('keeps ordinary markup', () => {
    expect(sanitizeHtml('<p>100 GB</p><ul><li>All nodes</li></ul><a href="https://x.example/">more</a>')).toBe(
      '<p>100 GB</p><ul><li>All nodes</li></ul><a href="https://x.example/">more</a>',
    );
  });

  it.each([
    ['<p>a</p><script>alert(1)</script><p>b</p>', '<p>a</p><p>b</p>'],
    ['<img src="x" onerror="alert(1)"><p onclick="alert(2)">b</p>', '<img src="x"><p>b</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<style>body{display:none}</style><p>b</p>', '<p>b</p>'],
    ['<p style="background:url(javascript:alert(1))">b</p>', '<p>b</p>'],
    ['<form action="/steal"><input name="pwd"><b>x</b></form>', '<b>x</b>'],
  ])('removes what can run or restyle the page: %s', (dirty, clean) => {
    expect(sanitizeHtml(dirty)).toBe(clean);
  });

  it('renders only the clean markup', () => {
    const { container } = renderWithProviders(
      <SafeHtml html={'<p>ok</p><script>x()</script><img src="x" onerror="y()">'} data-testid="html" />,
    );
    expect(screen.getByTestId('html').innerHTML).toBe('<p>ok</p><img src="x">');
    expect(container.querySelector('script, [onerror]')).toBeNull();
  });
});
