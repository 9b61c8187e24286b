// The page's Content-Security-Policy (scripts/build/finish-page.mjs) is strict and in force: an inline
// script the build did not write and a request to another origin (another port on loopback) are refused and reported. Every other
// test fails on any violation it sees (e2e/support/browser.mjs), so this one proves the listener hears them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { waitUntil } from './support/cluster.mjs';

test('the policy forbids injected scripts and foreign origins, and a violation is reported', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    const scriptSources = /script-src ([^;]*)/.exec(policy)[1].split(' ');
    assert.ok(scriptSources.includes("'self'") && scriptSources.includes("'wasm-unsafe-eval'"), policy);
    assert.ok(!scriptSources.includes("'unsafe-inline'") && !scriptSources.includes("'unsafe-eval'"), policy);
    assert.ok(scriptSources.some((source) => source.startsWith("'sha256-")), 'the inline start-up script is named by hash');
    assert.match(policy, /connect-src 'self'/);
    assert.match(policy, /object-src 'none'/);

    const ran = await page.evaluate(() => {
      window.__injected = false;
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
      return window.__injected;
    });
    assert.equal(ran, false, 'an injected inline script does not run');
    await page.evaluate(() => fetch('http://127.0.0.1:9/').catch(() => {}));
    await waitUntil(async () => app.violations.length >= 2, { what: 'both violations to be reported', detail: async () => app.violations });
    assert.match(app.violations.join('\n'), /script-src/);
    assert.match(app.violations.join('\n'), /connect-src/);
  } finally {
    // Expected here: cleared so that closing (which fails a test on any violation) does not.
    app.violations.length = 0;
    app.problems.length = 0;
    await app.close();
  }
});
