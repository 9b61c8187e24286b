// Launches Debian's Chromium through playwright-core and watches a page for anything that should fail a test:
// console errors, uncaught exceptions (a Rust panic shows up here through console_error_panic_hook) and any
// request that leaves the loopback server (the app must make no runtime network requests).
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { serveDist } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..', '..');
export const SCREENSHOT_DIR = join(REPO_ROOT, 'e2e', 'screenshots');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Others rebuild dist/ while tests run; a page loaded in the middle of that finds its wasm file gone.
// Such a load is retried (with the problems it collected dropped); a page that never mounts fails.
const MOUNT_ATTEMPTS = 3;

async function mountApp(page, url, problems) {
  for (let attempt = 1; ; attempt += 1) {
    problems.length = 0;
    await page.goto(url);
    try {
      await page.waitForSelector('[data-testid=app-root]', { timeout: 15_000 });
      // The panels around the cluster (and an addressed sheet or lesson) arrive as parts just after it
      // (src/lazy_part.rs); a test starts once they are in, as a learner reads the cluster first. A
      // part that never arrives is left for the test to find.
      // The picker's examples come with the scenario reader, another part, just after the first paint.
      await page.waitForFunction(
        () => !document.querySelector('[data-testid=lazy-loading], [data-testid=picker-examples-arriving]'),
        null,
        { timeout: 15_000 },
      ).catch(() => {});
      return;
    } catch (error) {
      if (attempt === MOUNT_ATTEMPTS) {
        throw new Error(`the app did not mount after ${attempt} loads: ${problems.join('; ') || error.message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
  }
}

/** Debian's Chromium, headless, with the flags every test and benchmark uses. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

// One browser per test file, and a fresh context (its own storage, cache and service workers, like a new
// profile) per test: starting and stopping Chromium for each of ~140 tests cost about 1.3 s apiece.
let sharedBrowser = null;

async function browserForThisFile() {
  if (!sharedBrowser?.isConnected()) sharedBrowser = await launchChromium();
  return sharedBrowser;
}

// Under the test runner (each file runs in a process of its own), the browser closes once the file's
// tests are done; without it the open browser would keep the process alive.
if (process.env.NODE_TEST_CONTEXT) {
  const { after } = await import('node:test');
  after(async () => {
    await sharedBrowser?.close().catch(() => {});
    sharedBrowser = null;
  });
}

// `serviceWorkers: 'block'` keeps public/sw.js out of a test that intercepts the page's requests
// (Playwright's routes do not see requests a service worker answers).
// `page` adds options for the page's context: `colorScheme`, `forcedColors`, `hasTouch`, `isMobile`...
// `prefix` serves the build from a sub-folder ('/courses/ql/') instead of the origin's root; `path` is then
// taken inside it.
export async function openApp({ width = 1440, height = 900, path = '/', prefix = '/', serviceWorkers = 'allow', reducedMotion = 'no-preference', page: pageOptions = {} } = {}) {
  // QUORUMLAB_DIST lets parallel work test its own build (`trunk build --release --dist DIR`).
  const server = await serveDist(process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist'), { prefix });
  const browser = await browserForThisFile();
  const context = await browser.newContext({ viewport: { width, height }, serviceWorkers, reducedMotion, ...pageOptions });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
  // The page's Content-Security-Policy (scripts/build/finish-page.mjs) must never have to refuse anything the app
  // itself does: every violation in any test is recorded here and fails that test when it closes.
  const violations = [];
  await page.exposeFunction('__quorumlabCspViolation', (text) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__quorumlabCspViolation?.(`${event.violatedDirective} refused ${event.blockedURI || 'inline code'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  page.on('request', (request) => {
    // blob: addresses of the page's own origin are memory of this page (exported pictures), not network.
    const local = [server.url, 'data:', `blob:${server.url}`];
    if (!local.some((prefix) => request.url().startsWith(prefix))) {
      problems.push(`network request outside the app: ${request.url()}`);
    }
  });
  const base = server.url + prefix.replace(/\/$/, '');
  try {
    await mountApp(page, base + path, problems);
  } catch (error) {
    // A page that never mounts (or a browser that died) must not leave the server open: the test runner
    // would then wait for it forever instead of reporting the failure.
    await context.close().catch(() => {});
    await server.close();
    throw error;
  }
  return {
    page,
    problems,
    violations,
    url: base,
    async screenshot(name, { fullPage = false } = {}) {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage });
    },
    async close() {
      await context.close();
      await server.close();
      if (violations.length) throw new Error(`Content-Security-Policy violations: ${violations.join('; ')}`);
    },
  };
}
