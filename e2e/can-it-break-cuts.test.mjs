// "Can it break?" with one-link cuts and the gallery's entry (issue 32). On Paxos with acceptors that
// forget, the card's search with crashes and "cut one link at a time" only (pauses and isolation off),
// depth 4, 4 faults and 0.3 s ahead finds Agreement broken by two cut links and a crash and restart;
// "Play it" plays it, and the run's TOML export and share link carry the cuts as ordinary steps. A
// one-node world offers no cuts. From the gallery, a card's "Can it break?" opens its scenario paused
// with the search card open, the invariant its story breaks chosen and Go focused, by keyboard on a
// desktop and by touch on a phone. Screenshots go to e2e/screenshots/ and, when EXPLORE_SHOTS names a
// folder, there too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, violatedInvariants, waitUntil } from './support/cluster.mjs';

const PROGRESS = '[data-testid=search-progress]';
const SIZES = [[1280, 720, 'desktop-1280'], [390, 844, 'phone']];

async function shot(app, name) {
  await app.screenshot(name);
  if (process.env.EXPLORE_SHOTS) {
    await mkdir(process.env.EXPLORE_SHOTS, { recursive: true });
    await app.page.screenshot({ path: join(process.env.EXPLORE_SHOTS, `${name}.png`) });
  }
}

async function setBudget(page, { depth, faults, states, horizon }) {
  for (const [id, value] of [['search-depth', depth], ['search-faults', faults], ['search-states', states], ['search-horizon', horizon]]) {
    await page.fill(`[data-testid=${id}]`, String(value));
    await page.press(`[data-testid=${id}]`, 'Tab');
  }
}

async function setKind(page, kind, on) {
  const box = page.locator(`[data-testid=search-kind-${kind}]`);
  if ((await box.isChecked()) !== on) await box.click();
  assert.equal(await box.isChecked(), on, `${kind} ${on ? 'on' : 'off'}`);
}

async function waitForResult(page) {
  await waitUntil(async () => (await page.locator('[data-testid=search-result]').count()) > 0, {
    timeout: 240_000,
    what: 'the search result',
    detail: () => page.textContent(PROGRESS),
  });
  return page.textContent('[data-testid=search-headline]');
}

for (const [width, height, name] of SIZES) {
  test(`one-link cuts find the forgetful acceptors' two values, and the played run carries them (${name})`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await page.selectOption('[data-testid=protocol-picker]', 'paxos-forgetful-acceptor.toml');
      await page.click('[data-testid=can-it-break-open]');
      await page.waitForSelector('[data-testid=search-go]');
      // The defaults are the engine's: every kind but one-link cuts.
      for (const [kind, on] of [['crash', true], ['pause', true], ['isolate', true], ['cut', false]]) {
        assert.equal(await page.isChecked(`[data-testid=search-kind-${kind}]`), on, kind);
      }
      assert.match(await page.textContent('[data-testid=search-kinds]'), /cut one link at a time/);
      await page.selectOption('[data-testid=search-goal]', 'Agreement');
      await setBudget(page, { depth: 4, faults: 4, states: 400000, horizon: 0.3 });
      assert.equal(await page.inputValue('[data-testid=search-horizon]'), '0.3');
      await setKind(page, 'pause', false);
      await setKind(page, 'isolate', false);
      await setKind(page, 'cut', true);
      await page.locator('[data-testid=search-kinds]').scrollIntoViewIfNeeded();
      await shot(app, `can-it-break-cuts-form-${name}`);
      const started = Date.now();
      await page.click('[data-testid=search-go]');
      const headline = await waitForResult(page);
      const wallSeconds = (Date.now() - started) / 1000;
      const said = await page.textContent('[data-testid=search-result]');
      console.log(`forgetful Paxos with cuts (${name}): ${headline} ${wallSeconds.toFixed(1)} s by the test's clock; ${/in ([\d.]+) s of your time/.exec(said)?.[0]}`);
      assert.match(headline, /^Broken: Agreement, with 4 steps and 4 faults \([\d,]+ states searched\)\.$/);
      const steps = await page.$$eval('[data-testid=search-schedule] li', (items) => items.map((item) => item.textContent));
      assert.equal(steps.filter((text) => /cut \S+ ↔ \S+/.test(text)).length, 2, steps.join(' | '));
      assert.equal(steps.filter((text) => /crash|restart/.test(text)).length, 2, steps.join(' | '));
      assert.equal(await page.textContent('[data-testid=search-kinds-used]'), 'Faults it could use: crash and restart, one-link cuts; not pauses or isolation.');
      await page.locator('[data-testid=search-result]').scrollIntoViewIfNeeded();
      await shot(app, `can-it-break-cuts-found-${name}`);

      await page.click('[data-testid=search-play]');
      await setSpeedPosition(page);
      await waitUntil(async () => (await violatedInvariants(page)).includes('Agreement'), {
        timeout: 60_000,
        what: 'the played schedule to choose two values',
      });
      // The cuts are the run's own steps: in its TOML export, and in its share link, which reopens the
      // same run (two values chosen again).
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-toml]')]);
      const toml = await readFile(await file.path(), 'utf8');
      assert.equal((toml.match(/do = "cut"/g) ?? []).length, 2, toml);
      assert.match(toml, /both = true/);
      await page.click('[data-testid=share-button]');
      const fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/.+/)?.[0], { what: 'the share link' });
      assertNoProblems(app);
      const viewer = await openApp({ width, height, path: `/${fragment}` });
      try {
        await waitUntil(async () => (await violatedInvariants(viewer.page)).includes('Agreement'), {
          timeout: 30_000,
          what: 'the shared run to show two values chosen',
        });
        assertNoProblems(viewer);
      } finally {
        await viewer.close();
      }
    } finally {
      await app.close();
    }
  });
}

test('a one-node world offers no one-link cuts', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/gallery/one-node' });
  const { page } = app;
  try {
    await waitUntil(async () => /one node/i.test(await page.textContent('[data-testid=scenario-title]')), { what: 'the one-node world' });
    await page.click('[data-testid=can-it-break-open]');
    await page.waitForSelector('[data-testid=search-kinds]');
    assert.equal(await page.locator('[data-testid=search-kind-cut]').count(), 0);
    assert.equal(await page.locator('[data-testid=search-kind-crash]').count(), 1);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

for (const [width, height, name] of SIZES) {
  const touch = name === 'phone';
  test(`the gallery's "Can it break?" opens the scenario with the search ready and Go focused (${name})`, async () => {
    const app = await openApp({ width, height, path: '/#/gallery', page: touch ? { hasTouch: true, isMobile: true } : {} });
    const { page } = app;
    try {
      const card = page.locator('[data-testid=gallery-item][data-gallery-id="paxos-forgetful-acceptor"]');
      const button = card.locator('[data-testid=gallery-search]');
      await button.waitFor({ timeout: 15_000 });
      assert.equal(await button.textContent(), 'Can it break?');
      await button.scrollIntoViewIfNeeded();
      await shot(app, `can-it-break-gallery-card-${name}`);
      if (touch) {
        await button.tap();
      } else {
        await button.focus();
        await page.keyboard.press('Enter');
      }
      await waitUntil(async () => (await page.locator('[data-testid=search-go]').count()) > 0, { timeout: 15_000, what: 'the search card to open' });
      await waitUntil(async () => page.evaluate(() => document.activeElement?.dataset?.testid === 'search-go'), { timeout: 10_000, what: 'Go to have focus' });
      assert.equal(await page.inputValue('[data-testid=search-goal]'), 'Agreement');
      assert.ok(await page.isChecked('[data-testid=search-from-start]'));
      assert.match(await page.textContent('[data-testid=scenario-title]'), /an acceptor that forgets/i);
      const inView = await page.evaluate(() => ['search-goal', 'search-go'].map((id) => {
        const box = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }));
      assert.deepEqual(inView, [true, true], 'what it looks for and Go are on screen');
      assert.match(new URL(page.url()).hash, /^#\/gallery\/paxos-forgetful-acceptor\/search$/);
      await shot(app, `can-it-break-gallery-opened-${name}`);
      // One more press searches: Enter on the focused Go (a tap on the phone).
      await setBudget(page, { depth: 1, faults: 1, states: 20000, horizon: 1 });
      if (touch) {
        await page.locator('[data-testid=search-go]').tap();
      } else {
        await page.focus('[data-testid=search-go]');
        await page.keyboard.press('Enter');
      }
      const headline = await waitForResult(page);
      assert.match(headline, /^(No counterexample within depth 1 and 1 fault|Broken: Agreement)/);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

// Lesson 11's last step: predict, then ask the search with cuts as the step says; its answer ticks it.
test("lesson 11's can-it-break step is done when the search with cuts finds two values", async () => {
  const { openStepWorld, step, stepResult, waitForStepState } = await import('./support/lesson-steps.mjs');
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/paxos/step/5' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="paxos"]');
    if ((await step(page, 5).locator('[data-testid=open-step-world]').count()) > 0) await openStepWorld(page, 5);
    await waitForStepState(page, 5, 'open', 20_000);
    const question = step(page, 5).locator('[data-testid=predict]').first();
    await question.locator('[data-testid=predict-option]').first().click();
    await page.click('[data-testid=can-it-break-open]');
    await page.waitForSelector('[data-testid=search-go]');
    await page.selectOption('[data-testid=search-goal]', 'Agreement');
    await setBudget(page, { depth: 4, faults: 4, states: 400000, horizon: 0.3 });
    await setKind(page, 'pause', false);
    await setKind(page, 'isolate', false);
    await setKind(page, 'cut', true);
    await page.click('[data-testid=search-go]');
    assert.match(await waitForResult(page), /^Broken: Agreement, with 4 steps and 4 faults/);
    await waitForStepState(page, 5, 'done', 10_000);
    assert.match(await stepResult(page, 5), /The search answered: Broken: Agreement/);
    assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /^✓ Right: /);
    await step(page, 5).scrollIntoViewIfNeeded();
    await shot(app, 'can-it-break-cuts-lesson-11');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
