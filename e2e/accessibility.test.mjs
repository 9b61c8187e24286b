// An axe-core audit (node_modules/axe-core, injected into the page) of every screen a learner or an
// instructor meets, in the dark and in the light theme: the playground, each world in the protocol picker,
// a lesson, presenter mode, the node popover, the export menu and the dialogs. No serious or critical
// violation (colour contrast among them) may remain; lesser ones are printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { openApp, REPO_ROOT } from './support/browser.mjs';
import { assertNoProblems } from './support/cluster.mjs';

const AXE = join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js');

async function audit(page, where) {
  // Evaluated through DevTools rather than added as a <script>: the page's Content-Security-Policy rightly
  // refuses an inline script it did not ship, and the audit must not loosen the policy it runs under.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(await readFile(AXE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
  const severe = violations.filter((violation) => ['serious', 'critical'].includes(violation.impact));
  const minor = violations.filter((violation) => !severe.includes(violation));
  if (minor.length > 0) console.log(`${where}: minor: ${minor.map((violation) => violation.id).join(', ')}`);
  return severe.map((violation) => `${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${violation.nodes.join(' | ')}`);
}

// The audit reads a still screen: while a run plays, a node's drawn words and its label can change between
// axe's two reads of them (a term ticking over), and on a loaded machine that showed as a false
// label-content-name-mismatch.
async function pause(page) {
  if ((await page.textContent('[data-testid=play-toggle]')).includes('Pause')) await page.click('[data-testid=play-toggle]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=play-toggle]')?.textContent.includes('Pause'));
}

// Once per theme: the system's preference picks it (no choice stored), and the page must say which one it
// drew, so a broken light theme cannot pass as a second dark run.
for (const colorScheme of ['dark', 'light']) test(`in the ${colorScheme} theme, the playground, every world, a lesson, presenter mode and the dialogs pass axe with no serious violation`, async () => {
  const app = await openApp({ page: { colorScheme } });
  const { page } = app;
  const found = [];
  try {
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const [red, green, blue] = background.match(/\d+/g).map(Number);
    const light = (red + green + blue) / 3 > 128;
    assert.equal(light, colorScheme === 'light', `the page background ${background} is ${colorScheme}`);
    await pause(page);
    found.push(...(await audit(page, 'playground')));
    const worlds = await page.$$eval('[data-testid=protocol-picker] option:not([disabled])', (options) => options.map((option) => option.value));
    assert.ok(worlds.length >= 7, `the picker offers the worlds: ${worlds}`);
    for (const world of worlds) {
      await page.selectOption('[data-testid=protocol-picker]', world);
      await page.waitForTimeout(300);
      await pause(page);
      found.push(...(await audit(page, `world ${world}`)));
    }
    await page.selectOption('[data-testid=protocol-picker]', worlds[0]);
    await pause(page);
    await page.locator('[data-testid=cluster-view] g[data-testid^="node-"]').first().click();
    await page.waitForSelector('[data-testid=node-popover]');
    found.push(...(await audit(page, 'node popover')));
    await page.keyboard.press('Escape');
    await page.click('[data-testid=export-button]');
    await page.waitForSelector('[data-testid=export-choices]');
    found.push(...(await audit(page, 'export menu')));
    await page.keyboard.press('Escape');
    await page.click('[aria-label="Keyboard shortcuts (?)"]');
    found.push(...(await audit(page, 'shortcuts dialog')));
    await page.keyboard.press('Escape');
    // The experiment sheet with a result drawn: its form, table and downloads.
    await page.click('[data-testid=gallery-button]');
    await page.locator('[data-testid=gallery-experiment]').first().click();
    await page.fill('[data-testid=experiment-trials]', '5');
    await page.press('[data-testid=experiment-trials]', 'Tab');
    await page.click('[data-testid=experiment-run]');
    await page.waitForSelector('[data-testid=experiment-result]', { timeout: 60_000 });
    found.push(...(await audit(page, 'experiment sheet')));
    await page.click('[data-testid=experiment-close]');
    await page.click('[data-testid=lessons-button]');
    await page.waitForSelector('[data-testid=lesson-item]');
    found.push(...(await audit(page, 'lesson list')));
    await page.locator('[data-testid=lesson-item][data-lesson-id=fencing-tokens] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel]');
    found.push(...(await audit(page, 'lesson 6')));
    await page.click('[data-testid=presenter-toggle]');
    found.push(...(await audit(page, 'presenter mode in a lesson')));
    assert.deepEqual(found, []);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

/** Each message's positions over `samples` frames, by message id. */
async function messagePositions(page, samples) {
  return page.evaluate(async (count) => {
    const seen = {};
    for (let frame = 0; frame < count; frame += 1) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      for (const dot of document.querySelectorAll('[data-testid=cluster-view] g.message[data-message-id]')) {
        const id = dot.dataset.messageId;
        (seen[id] ??= new Set()).add(dot.getAttribute('transform'));
      }
    }
    return Object.values(seen).map((positions) => positions.size);
  }, samples);
}

for (const [reducedMotion, most] of [['reduce', 3], ['no-preference', Infinity]]) {
  test(`with prefers-reduced-motion: ${reducedMotion}, messages ${most === 3 ? 'step through three stops' : 'glide'}`, async () => {
    const app = await openApp({ reducedMotion });
    const { page } = app;
    try {
      // Slow playback, so each message is on screen for many frames.
      await page.locator('input[aria-label="Playback speed"]').fill('250');
      if (!(await page.textContent('[data-testid=play-toggle]')).includes('Pause')) await page.click('[data-testid=play-toggle]');
      await page.waitForSelector('[data-testid=cluster-view] g.message[data-message-id]', { state: 'attached' });
      const counts = await messagePositions(page, 90);
      assert.ok(counts.length > 0, 'messages flew while sampled');
      const busiest = Math.max(...counts);
      if (most === 3) assert.ok(busiest <= 3, `at most three positions per message, saw ${busiest}`);
      else assert.ok(busiest > 3, `messages glide through many positions, saw ${busiest}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
