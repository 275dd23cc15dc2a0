import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { admin } from './support/admin.js';
import { launchBrowser } from './support/browser.js';
import { recordPolicyViolations } from './support/policy.js';
import { type E2eServer, startServer } from './support/server.js';

/** What an operator may format with; all of it must still show. */
const FORMATTING = '<p>Fast <b>nodes</b> in <i>many</i> places</p><ul><li>First perk</li><li>Second perk</li></ul>';
const HELP_LINK = 'https://example.com/help';
const HARMLESS = `${FORMATTING}<p><a href="${HELP_LINK}">Help centre</a></p>`;
/** What is left of the markup must hold none of this. */
const RUNNABLE = /<(script|iframe|svg|math|object|embed|form|input|style|meta|base|img)|\bon\w+=|javascript:|style=/i;

/**
 * Markup that runs script wherever any of it gets through: each piece calls `__xss` (or `alert`) with its own name.
 * The unclosed MathML confusion (mutation XSS) comes last, as it swallows what follows it.
 */
const HOSTILE = [
  `<script>__xss('script')</script>`,
  `<img src=x onerror="__xss('img-onerror')">`,
  `<img src=x onerror=&#95;&#95;xss&#40;'img-entities'&#41;>`,
  `<img src=x onerror=alert('img-alert')>`,
  `<svg onload="__xss('svg-onload')"><circle r="4"/></svg>`,
  `<svg><script>__xss('svg-script')</script></svg>`,
  `<iframe srcdoc="<script>__xss('iframe-srcdoc')</script>"></iframe>`,
  `<iframe src="javascript:__xss('iframe-javascript')"></iframe>`,
  `<a href="javascript:__xss('javascript-link')">javascript link</a>`,
  `<a href="&#106;avascript:__xss('entity-link')">entity link</a>`,
  `<a href="java&#x09;script:__xss('tab-link')">tab link</a>`,
  `<a href=" JaVaScRiPt:__xss('case-link')">case link</a>`,
  `<a href="data:text/html,<script>alert('data-link')</script>">data link</a>`,
  `<b onmouseover="__xss('onmouseover')">hover target</b>`,
  `<p onclick="__xss('onclick')">click target</p>`,
  `<details open ontoggle="__xss('ontoggle')"><summary>toggle target</summary>x</details>`,
  `<input autofocus onfocus="__xss('onfocus')" value="focus target">`,
  `<div style="background-image:url(javascript:__xss('style-url'))">style url</div>`,
  `<p style="width:expression(__xss('style-expression'))">style expression</p>`,
  `<style>@import url("javascript:__xss('style-import')");</style>`,
  `<object data="javascript:__xss('object')"></object><embed src="javascript:__xss('embed')">`,
  `<form action="javascript:__xss('form-action')"><button>form target</button></form>`,
  `<scr<script>ipt>__xss('split-script')</scr</script>ipt>`,
  `<meta http-equiv="refresh" content="0;url=javascript:__xss('meta-refresh')">`,
  `<base href="javascript:__xss('base')//">`,
  `&lt;script&gt;__xss('entity-text')&lt;/script&gt;`,
  `<math><mtext><table><mglyph><style><img src=x onerror="__xss('mutation')">`,
].join('');
const HOSTILE_HTML = `${HARMLESS}${HOSTILE}`;
const PLAN_NAME = `<img src=x onerror="__xss('plan-name')">Shield plan`;

/** What a customer does to the content: hovers and clicks each target, follows each link that is not the help page. */
async function actLikeACustomer(content: Locator) {
  await content.scrollIntoViewIfNeeded();
  for (const text of ['hover target', 'click target', 'toggle target', 'style url', 'form target']) {
    const target = content.getByText(text, { exact: true });
    if (await target.count()) {
      await target.first().hover();
      await target.first().click();
    }
  }
  for (const link of await content.locator('a').all()) {
    if ((await link.getAttribute('href'))?.startsWith('https://')) continue;
    await link.click();
  }
  await content.page().keyboard.press('Tab');
}

/** Nothing in the content that can run script or restyle the page, and all of the formatting still there. */
async function expectOnlyFormatting(content: Locator) {
  const found = await content.evaluate((root) => {
    const elements = [...root.querySelectorAll('*')];
    return {
      dangerous: elements
        .filter((node) =>
          /^(script|iframe|object|embed|form|input|button|style|meta|base|svg|math|link)$/i.test(node.tagName),
        )
        .map((node) => node.tagName),
      attributes: elements.flatMap((node) =>
        [...node.attributes]
          .filter(
            (attribute) =>
              /^(on|style$|srcdoc$|formaction$|action$|data$)/i.test(attribute.name) ||
              // Browsers drop spaces and control characters from a URL before reading its scheme.
              /^(javascript|data|vbscript):/i.test([...attribute.value].filter((char) => char > ' ').join('')),
          )
          .map((attribute) => `${node.tagName}[${attribute.name}]`),
      ),
      bold: root.querySelector('b')?.textContent,
      italic: root.querySelector('i')?.textContent,
      items: [...root.querySelectorAll('ul > li')].map((item) => item.textContent),
      help: root.querySelector('a[href="https://example.com/help"]')?.textContent,
    };
  });
  expect(found).toEqual({
    dangerous: [],
    attributes: [],
    bold: 'nodes',
    italic: 'many',
    items: ['First perk', 'Second perk'],
    help: 'Help centre',
  });
}

describe('operator HTML (plan contents and the notice) in a real browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const email = 'reader@example.com';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await insertAccount(server, email);
    admin(server, 'currency', 'add', '--code', 'USD', '--name', 'US Dollar');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * A signed-in customer whose every page reports script that runs (`__xss`, dialogs) and policy violations. With
   * `bypassCSP` the page's policy is off, so that only the sanitisers stand between the markup and the page.
   */
  async function customer(options: BrowserContextOptions) {
    const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce', ...options });
    const ran: string[] = [];
    await context.exposeFunction('__xss', (name: string) => void ran.push(name));
    const violations = await recordPolicyViolations(context);
    const tab = await context.newPage();
    context.on('page', (page) => page.on('dialog', (dialog) => void ran.push(`dialog: ${dialog.message()}`)));
    tab.on('dialog', (dialog) => {
      ran.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await logIn(tab, email);
    return { context, tab, ran, violations };
  }

  /** Opens the shop and the dashboard, uses their operator HTML, and checks that none of the hostile markup ran. */
  async function readShopAndNotice(tab: Page, ran: string[]) {
    await tab.goto('/person/shop?lang=en');
    const card = tab.getByTestId('plan-card');
    await card.waitFor();
    expect(await card.getByTestId('plan-name').textContent()).toBe(PLAN_NAME);
    const plan = card.getByTestId('plan-content');
    await expectOnlyFormatting(plan);
    await actLikeACustomer(plan);

    await tab.goto('/person/pannel?lang=en');
    const notice = tab.getByTestId('notice-text');
    await notice.waitFor();
    await expectOnlyFormatting(notice);
    await actLikeACustomer(notice);

    // A broken image's error handler runs within a few milliseconds: give any that got through the time to.
    await tab.waitForTimeout(300);
    expect(ran).toEqual([]);
    // The harness sees script that runs: the same kind of markup, put in the page by hand, reports itself.
    await tab.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', `<img src="x" onerror="__xss('control')">`);
    });
    await expect.poll(() => ran).toEqual(['control']);
  }

  it('strips it when saved from the command line, and none of it runs in the shop or on the dashboard', async () => {
    const plan = admin<{ id: number; contents: Record<string, string> }>(
      server,
      ...['plan', 'add', '--group', 'traffic', '--name', PLAN_NAME, '--content', HOSTILE_HTML],
    );
    const pkg = ['--plan', String(plan.id), '--label', '30 days', '--days', '30', '--traffic-gb', '10'];
    admin(server, 'package', 'add', ...pkg, '--price', 'USD:5/4');
    const notice = admin<{ texts: Record<string, string> }>(server, 'notice', 'set', '--text', HOSTILE_HTML);
    for (const stored of [...Object.values(plan.contents), ...Object.values(notice.texts)]) {
      expect(stored).not.toMatch(RUNNABLE);
      expect(stored).toContain(FORMATTING);
      expect(stored).toContain(`href="${HELP_LINK}"`);
    }
    const { context, tab, ran } = await customer({ bypassCSP: true });
    await readShopAndNotice(tab, ran);
    await context.close();
  });

  it('holds when the markup is written straight into the database: the server sanitises it as it serves it', async () => {
    const database = new SQLite(path.join(server.dataDir, 'e2e.db'));
    try {
      const texts = JSON.stringify({ en: HOSTILE_HTML, 'pt-BR': HOSTILE_HTML, 'zh-Hans': HOSTILE_HTML });
      expect(database.prepare('update plans set contents = ?').run(texts).changes).toBe(1);
      expect(database.prepare("update settings set value = ? where key = 'notice'").run(texts).changes).toBe(1);
    } finally {
      database.close();
    }
    const { context, tab, ran } = await customer({ bypassCSP: true });
    // The operator HTML of the server's answers: the plans' contents, and the notice.
    const served = new Map<string, string[]>();
    tab.on('response', async (response) => {
      const call = /\/mutenet\/(packages|notice)/.exec(response.url())?.[1];
      if (!call) return;
      // An answer to a page the tab has already left (the dashboard after the login, say) is gone by now: each call
      // is made again on the pages read below, and both must have been read (checked after them).
      const body = await response.json().catch(() => undefined);
      if (!body) return;
      const { data } = body;
      served.set(
        call,
        call === 'notice' ? [data.content] : [...data.traffic, ...data.durational].map((p) => p.content),
      );
    });
    await readShopAndNotice(tab, ran);
    expect([...served.keys()].sort()).toEqual(['notice', 'packages']);
    for (const html of [...served.values()].flat()) {
      expect(html).not.toMatch(RUNNABLE);
      expect(html).toContain(FORMATTING);
    }
    await context.close();
  });

  it('holds when the server is bypassed too: the panel sanitises what it is sent before showing it', async () => {
    const { context, tab, ran } = await customer({ bypassCSP: true });
    const rewritten = new Set<string>();
    await context.route('**/mutenet/packages*', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      for (const plan of [...json.data.traffic, ...json.data.durational]) plan.content = HOSTILE_HTML;
      rewritten.add('packages');
      await route.fulfill({ response, json });
    });
    await context.route('**/mutenet/notice*', async (route) => {
      const response = await route.fetch();
      rewritten.add('notice');
      await route.fulfill({ response, json: { ...(await response.json()), data: { content: HOSTILE_HTML } } });
    });
    await readShopAndNotice(tab, ran);
    expect([...rewritten].sort()).toEqual(['notice', 'packages']);
    // What the server would have stripped and the panel's sanitiser keeps, harmless: the page had the raw markup.
    expect(await tab.getByTestId('notice-text').locator('details').count()).toBe(1);
    await context.close();
  });

  it("has the panel's policy refuse inline script, event attributes, javascript: URLs and eval as a second line", async () => {
    const { context, tab, ran, violations } = await customer({});
    await tab.goto('/person/pannel?lang=en');
    await tab.getByTestId('notice-text').waitFor();
    expect(violations).toEqual([]);
    // Past every sanitiser: the hostile markup put straight into the page, and a script element made by script.
    await tab.evaluate((html) => {
      const box = document.createElement('div');
      // Above the panel's fixed header and navigation, so that it can be clicked.
      box.style.cssText = 'position: fixed; inset: 0; z-index: 10000; overflow: auto; background: white';
      box.innerHTML = html;
      document.body.append(box);
      const script = document.createElement('script');
      script.textContent = "__xss('inline-script')";
      document.body.append(script);
    }, HOSTILE_HTML);
    // Eval from the page's own turn of the event loop (DevTools' evaluation itself is allowed to).
    const evaluated = await tab.evaluate(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            try {
              // biome-ignore lint/security/noGlobalEval: the page's policy must refuse it
              resolve(eval("__xss('eval'); 'ran'"));
            } catch (error) {
              resolve((error as Error).name);
            }
          }),
        ),
    );
    expect(evaluated).toBe('EvalError');
    const refused = (from: number) => violations.slice(from).map((violation) => violation.directive);
    await expect
      .poll(() => refused(0))
      .toEqual(expect.arrayContaining(['script-src-elem', 'script-src-attr', 'script-src']));
    // What a customer would then do: follow the link (refused as it is followed), hover and click the text (their
    // handlers were refused as they were put in the page). The injected copy is the last in the page (the notice
    // shows its sanitised one).
    const seen = violations.length;
    await tab.getByText('javascript link', { exact: true }).last().click();
    await expect.poll(() => refused(seen)).toContain('script-src-elem');
    await tab.getByText('hover target', { exact: true }).last().hover();
    await tab.getByText('click target', { exact: true }).last().click();
    expect(ran).toEqual([]);
    await context.close();
  });
});
