// The light and dark themes: the system's preference picks one, the header's switch (system / light /
// dark) overrides it by mouse or keyboard and is remembered, a reload shows the chosen theme before the
// app has even started, and everything drawn in code (the cluster's SVG, the charts' canvas) follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

/** Mean of a computed `rgb(...)` colour's channels: above 128 reads as light. */
function brightness(color) {
  const [red, green, blue] = color.match(/[\d.]+/g).map(Number);
  return (red + green + blue) / 3;
}

/** The colours the page paints right now: its background, a follower's body, the chart canvas' corner. */
async function painted(page) {
  return page.evaluate(() => {
    const body = document.querySelector('[data-testid=cluster-view] .role-follower .node-body');
    const canvas = document.querySelector('[data-testid=chart-outcomes] canvas');
    const [red, green, blue] = canvas.getContext('2d').getImageData(2, 2, 1, 1).data;
    return {
      theme: document.documentElement.dataset.theme ?? 'system',
      page: getComputedStyle(document.documentElement).backgroundColor,
      node: getComputedStyle(body).fill,
      chart: `rgb(${red}, ${green}, ${blue})`,
    };
  });
}

/** Waits until the page, a node and the chart all read as `light` (true) or dark (false). */
async function waitForTheme(page, light, what) {
  // A chart scrolled out of sight is not drawn until it comes back, so it is looked at where it is seen.
  await page.locator('[data-testid=chart-leader]').scrollIntoViewIfNeeded();
  const colors = await waitUntil(async () => {
    const colors = await painted(page);
    const all = [colors.page, colors.node, colors.chart].every((color) => (brightness(color) > 128) === light);
    return all && colors;
    // The chart is a canvas repainted on the next frame; under the full suite's load that frame can be late.
  }, { timeout: 20_000, what: `${what}: page, nodes and chart ${light ? 'light' : 'dark'}` });
  await page.evaluate(() => window.scrollTo(0, 0));
  return colors;
}

test('the system preference picks the theme, and the switch overrides it, by keyboard too, across a reload with no flash', async () => {
  // Service workers blocked: the reload below holds the wasm back through a route, which a worker would bypass.
  const app = await openApp({ serviceWorkers: 'block', page: { colorScheme: 'dark' } });
  const { page } = app;
  try {
    await waitForTheme(page, false, 'a dark system');
    await page.emulateMedia({ colorScheme: 'light' });
    await waitForTheme(page, true, 'the system turned light while the page was open');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitForTheme(page, false, 'the system dark again');
    assert.equal(await page.getAttribute('[data-theme-choice=system]', 'aria-pressed'), 'true');

    // By keyboard: focus the "light" button and press Enter, then Space on "dark", then back to light.
    await page.focus('[data-theme-choice=light]');
    await page.keyboard.press('Enter');
    const light = await waitForTheme(page, true, 'light chosen on a dark system');
    assert.equal(light.theme, 'light');
    assert.equal(await page.getAttribute('[data-theme-choice=light]', 'aria-pressed'), 'true');
    assert.equal(await page.getAttribute('[data-theme-choice=system]', 'aria-pressed'), 'false');
    await page.focus('[data-theme-choice=dark]');
    await page.keyboard.press(' ');
    await waitForTheme(page, false, 'dark chosen');
    assert.equal(await page.evaluate(() => localStorage.getItem('quorumlab-theme')), 'dark');
    await page.click('[data-theme-choice=light]');
    await waitForTheme(page, true, 'light chosen by click');
    await app.screenshot('theme-light-1440');

    // Reload with the app's code held back: the page must already be light before any of it runs.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route(/\.wasm$/, async (route) => { await held; await route.continue(); });
    await page.reload({ waitUntil: 'domcontentloaded' });
    const early = await page.evaluate(() => ({
      mounted: document.querySelector('[data-testid=app-root]') !== null,
      theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.documentElement).backgroundColor,
    }));
    release();
    assert.equal(early.mounted, false, 'checked before the app started');
    assert.equal(early.theme, 'light');
    assert.ok(brightness(early.background) > 128, `light before the app ran, saw ${early.background}`);
    await page.waitForSelector('[data-testid=app-root]');
    await waitForTheme(page, true, 'the remembered choice after a reload');
    assert.equal(await page.getAttribute('[data-theme-choice=light]', 'aria-pressed'), 'true');

    await page.click('[data-theme-choice=system]');
    await waitForTheme(page, false, 'back to following the dark system');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? null), null);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('no colour is written into the markup: every drawn colour comes from the stylesheet, so it follows the theme', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    // A partition (halos), the charts' legends and some log entries: every place code draws colour.
    await page.keyboard.press('w');
    await page.keyboard.press('w');
    await page.waitForTimeout(800);
    await page.getByRole('button', { name: 'Apply partition' }).click();
    await page.waitForSelector('[data-testid=cluster-view] .group-halo');
    await page.waitForTimeout(800);
    const literal = await page.evaluate(() => {
      const colour = /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i;
      const found = [];
      for (const element of document.querySelectorAll('body *')) {
        for (const name of ['fill', 'stroke', 'color', 'style', 'stop-color']) {
          const value = element.getAttribute(name);
          if (value && colour.test(value)) found.push(`<${element.tagName.toLowerCase()} class="${element.getAttribute('class')}"> ${name}="${value}"`);
        }
      }
      return found;
    });
    assert.deepEqual(literal, [], 'colours set in markup cannot follow the theme');
    const halos = await page.$$eval('[data-testid=cluster-view] .group-halo', (circles) => circles.map((circle) => getComputedStyle(circle).fill));
    assert.ok(halos.length >= 5 && new Set(halos).size >= 2, `each side of the partition has its own halo colour: ${halos}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
