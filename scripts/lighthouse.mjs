// `npm run lighthouse`: Lighthouse 12 (mobile, default simulated throttling) on the login screen, the dashboard and
// the shop, served by the built server on a temporary SQLite database with the demo catalogue. Prints the performance
// and accessibility scores, and the audits that cost points when a page misses its target, with the requests the
// simulation put on the way to its Largest Contentful Paint; exits 1 then.

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { build } from './lib.mjs';

const TARGETS = { performance: 95, accessibility: 100 };
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

build();
// The browser tests' server and the server tests' sign-up over the real calls (the code read from the outbox).
const { CHROMIUM_FLAGS, CHROMIUM_PATH, startServer, CAPTCHA_TEST_CODE, signUp, httpClient } = await tsImport(
  './lighthouse-support.ts',
  import.meta.url,
);

const server = await startServer({ SEED_DEMO_CATALOG: 'true', CAPTCHA_TEST_CODE });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
let missed = false;
try {
  const token = await signUp(server, httpClient(server.url), 'lighthouse@example.com');
  // A tab of Lighthouse's browser, to give the signed-in pages the session and to empty the cache before each run.
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const tab = await cdp.contexts()[0].newPage();
  const devtools = await tab.context().newCDPSession(tab);

  const pages = [
    // First, on a clean profile: Lighthouse empties the origin's storage and the cache itself.
    { name: 'login', path: '/person/login', signedIn: false },
    { name: 'dashboard', path: '/person/pannel', signedIn: true },
    { name: 'shop', path: '/person/shop', signedIn: true },
  ];
  for (const page of pages) {
    if (page.signedIn) {
      await tab.goto(`${server.url}/healthz`);
      await tab.evaluate((value) => localStorage.setItem('token', value), token);
      await devtools.send('Network.clearBrowserCache');
    }
    const run = () =>
      lighthouse(`${server.url}${page.path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(TARGETS),
        // Storage holds the session of a signed-in page; the cache was emptied above.
        disableStorageReset: page.signedIn,
      });
    let { lhr } = await run();
    // Lighthouse now and then fails to record the trace of a load (NO_NAVSTART, and no score): once more then.
    if (lhr.runtimeError) ({ lhr } = await run());
    const pageMissed = report(page.name, lhr);
    if (pageMissed) reportLcpChain(server.url);
    Lantern.Simulation.Simulator.allNodeTimings.clear();
    missed = pageMissed || missed;
  }
  await cdp.close();
} finally {
  chrome.kill();
  await server.stop();
}
process.exit(missed ? 1 : 0);

/** Prints a page's scores and metrics, and the audits that cost points when a score misses its target. */
function report(name, lhr) {
  const scores = Object.entries(TARGETS).map(([category, target]) => {
    const score = Math.round((lhr.categories[category]?.score ?? 0) * 100);
    return { category, target, score, missed: score < target };
  });
  const metrics = METRICS.map((id) => `${lhr.audits[id].title}: ${lhr.audits[id].displayValue}`).join(', ');
  process.stdout.write(`\n${name}: ${scores.map((s) => `${s.category} ${s.score} (target ${s.target})`).join(', ')}\n`);
  process.stdout.write(`  ${metrics}\n`);
  // The simulated phone is this machine slowed down 4 times: a slower machine scores lower for the same page.
  process.stdout.write(`  this machine's CPU benchmark index: ${Math.round(lhr.environment.benchmarkIndex)}\n`);
  for (const warning of lhr.runWarnings) process.stdout.write(`  ! ${warning}\n`);
  for (const { category } of scores.filter((s) => s.missed)) {
    const failing = lhr.categories[category].auditRefs
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(({ audit }) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
      .sort((a, b) => b.ref.weight - a.ref.weight || a.audit.score - b.audit.score)
      .slice(0, 8);
    for (const { audit } of failing) {
      process.stdout.write(`  - ${category}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}\n`);
    }
  }
  return scores.some((s) => s.missed);
}

/**
 * The requests Lighthouse's simulation (Lantern) put on the way to the page's Largest Contentful Paint, in the order
 * it started them, with their simulated start and end on the throttled network: what holds that paint back.
 */
function reportLcpChain(origin) {
  const timings = Lantern.Simulation.Simulator.allNodeTimings.get('optimisticLargestContentfulPaint');
  if (!timings) return;
  process.stdout.write('  requests on the way to the Largest Contentful Paint (simulated ms):\n');
  const requests = [...timings]
    .filter(([node]) => node.type === 'network')
    .sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [node, { startTime, endTime }] of requests) {
    const { url, priority } = node.request;
    const at = `${Math.round(startTime)}–${Math.round(endTime)}`.padStart(11);
    process.stdout.write(`    ${at} ${url.replace(origin, '')} (${priority})\n`);
  }
}
