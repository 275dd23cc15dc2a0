import { describe, expect, it } from 'vitest';
import { EMPTY_INPUT, FIXTURE_INPUT, FIXTURE_PROXIES } from './__fixtures__/feed-input.js';
import type { FeedInput } from './feed-format.js';
import { escapeHtml, renderFeedPage } from './html-page.js';

const LINK = 'https://panel.example.com/api/v1/client/subscribe?token=abc123&flag=';

describe('renderFeedPage', () => {
  it('explains the link and shows usage, expiry and node count, as text/html', () => {
    const page = renderFeedPage(FIXTURE_INPUT, { language: 'en', link: LINK });
    expect(page.contentType).toBe('text/html; charset=utf-8');
    expect(page.body.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page.body).toContain('<h1>Subscription link</h1>');
    expect(page.body).toContain('not opened in a browser');
    expect(page.body).toContain('<dd>6 GiB of 100 GiB</dd>');
    expect(page.body).toContain('<time datetime="2026-01-01">January 1, 2026</time>');
    expect(page.body).toContain(`<dd>${FIXTURE_PROXIES.length}</dd>`);
    expect(page.body).toContain(`value="${escapeHtml(LINK)}"`);
    expect(page.body).toContain('<meter id="usage" min="0" max="107374182400" value="6442450944"');
    expect(page.body).toContain('<label for="link">');
    expect(page.body).toContain('<input id="link" type="text" readonly');
  });

  it('loads nothing from elsewhere and runs no script', () => {
    const page = renderFeedPage(FIXTURE_INPUT, { language: 'en', link: LINK }).body;
    expect(page).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|\bon[a-z]+=|url\(|@import/i);
  });

  it('escapes a hostile title, link and numbers-as-text, so nothing can be injected', () => {
    const hostile: FeedInput = {
      ...FIXTURE_INPUT,
      title: '</title><script>alert(1)</script><img src=x onerror=alert(2)>',
    };
    const hostileLink = 'https://x.example/"><script>alert(3)</script>&\'';
    const page = renderFeedPage(hostile, { language: 'en', link: hostileLink }).body;
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('/"><');
    expect(page).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('value="https://x.example/&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;&amp;&#39;"');
    expect((page.match(/<title>/g) ?? []).length).toBe(1);
  });

  it('speaks each of the three languages', () => {
    const cases = [
      ['en', 'Subscription link', 'Nodes available', 'January 1, 2026'],
      ['pt-BR', 'Link de assinatura', 'Nós disponíveis', '1 de janeiro de 2026'],
      ['zh-Hans', '订阅链接', '可用节点', '2026年1月1日'],
    ] as const;
    for (const [language, heading, nodes, date] of cases) {
      const page = renderFeedPage(FIXTURE_INPUT, { language, link: LINK }).body;
      expect(page).toContain(`<html lang="${language}">`);
      expect(page).toContain(`<h1>${heading}</h1>`);
      expect(page).toContain(`<dt>${nodes}</dt>`);
      expect(page).toContain(date);
    }
    expect(renderFeedPage(FIXTURE_INPUT, { language: 'pt-BR', link: LINK }).body).toContain('6 GiB de 100 GiB');
  });

  it('tells a user without nodes why, and shows unlimited traffic and no expiry plainly', () => {
    const unlimited: FeedInput = { ...EMPTY_INPUT, usage: { upload: 1536, download: 0, total: 0, expire: 0 } };
    const page = renderFeedPage(unlimited, { language: 'en', link: LINK }).body;
    expect(page).toContain('<dd>1.5 KiB of unlimited</dd>');
    expect(page).toContain('<dd>Never</dd>');
    expect(page).toContain('<dd>0</dd>');
    expect(page).toContain('role="status"');
    expect(page).toContain('No node is available right now');
    expect(page).not.toContain('<meter');
  });
});
