import { AxeBuilder } from '@axe-core/playwright';
import { type Language, REQUEST_LANGUAGE } from '@mutenet/contract';
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

export const PHONE: BrowserContextOptions = {
  viewport: { width: 375, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/** A page in a context of its own (axe needs one), with the server's base URL. */
export async function openPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  return context.newPage();
}

/** No axe violations on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

/**
 * Waits until the page's transitions are over (a drawer sliding in, a dialog fading in): axe measures colours as they
 * are drawn, and would report a half-faded text. Endless animations (the dashboard's scrolling notice) do not count.
 */
export async function waitForTransitions(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter(
              (animation) =>
                animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity,
            ).length,
      ),
    )
    .toBe(0);
}

/**
 * Picks the panel's language and waits until the page is in it. Its strings load on demand, and until they are there
 * the page stays in the language it had: a toast raised in that moment keeps the old language (CI failed so).
 */
export async function chooseLanguage(page: Page, language: Language) {
  await page.getByTestId('language-select').selectOption(language);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(REQUEST_LANGUAGE[language]);
}

/**
 * How many lines each element's text takes as drawn. Chinese may break between any two characters, so a squeezed
 * column can stack a word one character a line where English would have kept it whole.
 */
export function linesOfText(elements: Locator): Promise<number[]> {
  return elements.evaluateAll((nodes) =>
    nodes.map((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }),
  );
}

/** Tabs forward until `target` has the focus, as a keyboard user would, and checks that it shows it. */
export async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((node) => node === document.activeElement)) {
      expect(await page.evaluate(focusShown), `the focus on ${target}`).toBe(true);
      return;
    }
  }
  throw new Error(`${target} was not reached by Tab`);
}

/**
 * Tabs through the whole page, once round, and names each control that did not show it had the focus (its tag, test
 * id or label): none should.
 */
export async function controlsWithoutVisibleFocus(page: Page): Promise<string[]> {
  const unseen: string[] = [];
  for (let presses = 0; presses < 100; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const walk = window as { firstFocused?: Element };
      const node = document.activeElement;
      if (!node || node === document.body) return undefined;
      // Round once: the walk ends where it began (names may repeat: two fields' "show password" buttons).
      if (walk.firstFocused === node) return { name: '', again: true };
      walk.firstFocused ??= node;
      const label = node.getAttribute('data-testid') ?? node.getAttribute('aria-label') ?? node.textContent?.trim();
      return { name: `${node.tagName.toLowerCase()} ${label?.slice(0, 40) ?? ''}`, again: false };
    });
    if (!focused) continue;
    if (focused.again) break;
    if (!(await page.evaluate(focusShown))) unseen.push(focused.name);
  }
  return unseen;
}

/**
 * Whether something of the focused element's look, or of the box drawn around it (a password field's), changes with
 * the focus: an outline or a ring, or an input's border colour. Run in the page.
 */
function focusShown(): boolean {
  const node = document.activeElement;
  if (!(node instanceof HTMLElement)) return false;
  const boxes = [node, node.parentElement, node.parentElement?.parentElement].filter(
    (box): box is HTMLElement => box instanceof HTMLElement,
  );
  const look = () =>
    boxes
      .map((box) => {
        const style = getComputedStyle(box);
        const outline = style.outlineStyle === 'none' ? '' : `${style.outlineWidth} ${style.outlineColor}`;
        return [outline, style.boxShadow, style.borderColor].join(' ');
      })
      .join(' | ');
  // Without their transitions, which would still show the focused look for a moment after the blur.
  const transitions = boxes.map((box) => box.style.transition);
  for (const box of boxes) box.style.transition = 'none';
  const focused = look();
  node.blur();
  const unfocused = look();
  node.focus();
  boxes.forEach((box, index) => {
    box.style.transition = transitions[index]!;
  });
  return focused !== unfocused;
}

/** The text of the heading that has the focus, if a heading has it. */
export function focusedHeading(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    return focused && /^H[1-6]$/.test(focused.tagName) ? (focused.textContent ?? '') : undefined;
  });
}
