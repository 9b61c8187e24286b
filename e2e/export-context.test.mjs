// Pictures that tell the story (issue 35): exported from the "no fencing" scenario after its invariants
// broke, a picture carries the scenario's title, the simulated time as the clock writes it, the caption
// on screen, every invariant with the broken ones marked violated, and a legend of the drawing; by
// default in the light theme's colours even when the page is dark. "Picture only" leaves the words out,
// and both options are visible controls kept for the tab's session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { assertPng, exportPicture, inspectSvg, setExportOptions } from './support/export.mjs';

const TITLE = "No fencing: a paused holder overwrites the next holder's work";

/** The smallest of a CSS colour's red, green and blue: above 200 is a light colour, below 80 a dark one. */
function darkest(colour) {
  const [red, green, blue] = colour.match(/\d+(\.\d+)?/g).map(Number);
  return Math.min(red, green, blue);
}

/** "3.801 s" or "250 ms" in milliseconds, or null for other words. */
function timeMs(text) {
  const seconds = /^(\d+)\.(\d{3}) s$/.exec(text);
  if (seconds) return Number(seconds[1]) * 1000 + Number(seconds[2]);
  const ms = /^(\d+) ms$/.exec(text);
  return ms ? Number(ms[1]) : null;
}

/** Opens the no-fencing example, plays it fast until Mutual Exclusion breaks, and pauses. */
async function afterTheViolation(page) {
  await page.selectOption('[data-testid=protocol-picker]', 'no-fencing-pause.toml');
  await setSpeedPosition(page);
  await waitUntil(async () => (await violatedInvariants(page)).includes('Mutual Exclusion'), {
    timeout: 20_000,
    what: 'a red Mutual Exclusion badge',
  });
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
  await page.waitForTimeout(300);
  return page.evaluate(() => ({
    clock: document.querySelector('[data-testid=sim-time]').textContent.trim(),
    caption: document.querySelector("[data-testid=narration-caption]").textContent.replace(/\s+/g, " ").trim(),
    violated: [...document.querySelectorAll('[data-testid=checker-badges] li.violated')].map((badge) => badge.dataset.invariant),
    badges: document.querySelectorAll('[data-testid=checker-badges] li[data-invariant]').length,
    panel: getComputedStyle(document.querySelector('.cluster-panel')).backgroundColor,
  }));
}

test('a picture of the no-fencing run after the violation tells its story, in light colours on a dark page', async () => {
  const app = await openApp({ page: { colorScheme: 'dark' } });
  const { page } = app;
  try {
    const shown = await afterTheViolation(page);
    assert.ok(darkest(shown.panel) < 80, `the page is dark: ${shown.panel}`);
    await page.click('[data-testid=export-button]');
    assert.equal(await page.isChecked('[data-testid=export-context]'), true, 'the words are included by default');
    assert.equal(await page.inputValue('[data-testid=export-theme]'), 'light', 'light colours by default');

    const svg = await exportPicture(page, 'export-cluster-svg');
    const text = svg.bytes.toString('utf8');
    const cluster = await inspectSvg(page, text);
    assert.equal(cluster.error, null, 'the SVG parses');
    assert.ok(cluster.drawn, 'the framed file draws as an image on its own');
    assert.deepEqual(cluster.references, [], 'nothing points outside the file');
    assert.equal(cluster.framed.title.join(' '), TITLE, 'the scenario is named');
    assert.ok(cluster.framed.time.join(' ').includes(shown.clock), `the time ${shown.clock} is shown: ${cluster.framed.time}`);
    assert.equal(cluster.framed.caption.join(' '), shown.caption, 'the caption on screen is in the picture');
    assert.equal(cluster.invariants.length, shown.badges, 'every badge is in the picture');
    for (const name of shown.violated) {
      const invariant = cluster.invariants.find((item) => item.name === name);
      assert.equal(invariant?.state, 'violated', `${name} is marked violated: ${JSON.stringify(invariant)}`);
      assert.match(invariant.text, /✗ .*: violated$/);
      assert.ok(text.includes(`${name}: violated`), `${name}: violated is written in the file`);
    }
    assert.ok(shown.violated.includes('Mutual Exclusion'));
    const holding = cluster.invariants.find((item) => item.state === 'holds');
    assert.ok(holding && !holding.text.includes('violated'), 'a holding invariant is not marked violated');
    assert.notEqual(holding.fill, cluster.invariants.find((item) => item.state === 'violated').fill, 'violated ones in another colour');
    assert.ok(cluster.framed.heading.includes('Legend'), `a legend: ${cluster.framed.heading}`);
    for (const word of ['leader', 'follower', 'worker', 'resource']) {
      assert.ok(cluster.framed.legend.includes(word), `the legend explains ${word}: ${cluster.framed.legend}`);
    }
    // Light, though the page is dark: the frame's background and the drawing's nodes.
    assert.ok(darkest(cluster.background) > 200, `a light background, saw ${cluster.background}`);
    assert.ok(cluster.nodeFills.length >= 5, 'the nodes are drawn');
    for (const fill of cluster.nodeFills) assert.ok(darkest(fill) > 150, `a light node fill, saw ${fill}`);
    assert.ok(cluster.width > 1000 && cluster.height > 800, `the frame holds the 1000×800 drawing: ${cluster.width}×${cluster.height}`);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.querySelector('.cluster-panel')).backgroundColor),
      shown.panel,
      'the page itself stays dark',
    );
    assert.equal(await page.evaluate(() => document.querySelector('[data-export-theme], [data-export-still]')), null);

    // The diagram is below the fold, where it stops following the run; with the menu open it catches up,
    // so its newest tick is within its 500 ms window of the clock.
    const fold = await page.evaluate(() => document.querySelector('[data-testid=spacetime]').getBoundingClientRect().top - innerHeight);
    assert.ok(fold > 64, `the diagram is out of sight (${fold} px below the fold)`);
    const lanes = await inspectSvg(page, (await exportPicture(page, 'export-space-time-svg')).bytes.toString('utf8'));
    const ticksMs = lanes.texts.map(timeMs).filter((ms) => ms !== null);
    const newestTickMs = Math.max(...ticksMs);
    const clockMs = timeMs(shown.clock);
    assert.ok(newestTickMs <= clockMs && clockMs - newestTickMs <= 500, `ticks ${ticksMs} end near the clock ${shown.clock}`);
    assert.equal(lanes.framed.title.join(' '), TITLE);
    assert.ok(lanes.framed.time.join(' ').includes(shown.clock));
    assert.ok(lanes.framed.heading.includes('Legend — each line is a node; each arrow a message'), `${lanes.framed.heading}`);
    assert.equal(lanes.invariants.find((item) => item.name === 'Mutual Exclusion')?.state, 'violated');
    assert.ok(darkest(lanes.background) > 200, `a light diagram, saw ${lanes.background}`);

    const png = await exportPicture(page, 'export-cluster-png');
    assertPng(png.bytes, { width: cluster.width * 2, height: cluster.height * 2 }, 'the framed cluster PNG');

    // "As on screen" keeps the dark theme.
    await setExportOptions(page, { theme: 'as-on-screen' });
    const dark = await inspectSvg(page, (await exportPicture(page, 'export-cluster-svg')).bytes.toString('utf8'));
    assert.equal(dark.background, shown.panel, "as on screen, the panel's own dark colour");
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('"picture only" leaves the words out, and both options are kept for the session', async () => {
  const app = await openApp({ page: { colorScheme: 'dark' } });
  const { page } = app;
  try {
    await afterTheViolation(page);
    await setExportOptions(page, { context: false, theme: 'as-on-screen' });
    const text = (await exportPicture(page, 'export-cluster-svg')).bytes.toString('utf8');
    const bare = await inspectSvg(page, text);
    assert.deepEqual([bare.width, bare.height], [1000, 800], 'the drawing alone');
    assert.deepEqual(bare.invariants, [], 'no invariants');
    assert.deepEqual(Object.values(bare.framed).flat(), [], 'no title, time, caption or legend');
    assert.ok(!text.includes('violated'), 'nothing says violated');
    assert.ok(darkest(bare.background) < 80, 'as on screen: dark');

    await page.reload();
    await page.waitForSelector('[data-testid=app-root]');
    await page.click('[data-testid=export-button]');
    assert.equal(await page.isChecked('[data-testid=export-context]'), false, 'picture only, still');
    assert.equal(await page.inputValue('[data-testid=export-theme]'), 'as-on-screen', 'as on screen, still');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the options work by keyboard, and by touch on a phone', async () => {
  const app = await openApp({ width: 390, height: 844, page: { hasTouch: true, isMobile: true } });
  const { page } = app;
  try {
    await page.tap('[data-testid=export-button]');
    await page.waitForSelector('[data-testid=export-choices]');
    for (const control of ['export-context', 'export-theme']) {
      const box = await page.locator(`[data-testid=${control}]`).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${control} is on the screen: ${JSON.stringify(box)}`);
    }
    await page.tap('[data-testid=export-context]');
    assert.equal(await page.isChecked('[data-testid=export-context]'), false, 'a tap unticks it');
    await page.locator('[data-testid=export-context]').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.isChecked('[data-testid=export-context]'), true, 'Space ticks it again');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'export-theme', 'Tab reaches the colours');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('[data-testid=export-choices]'), false, 'Escape closes the menu');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
