// "Can it break?" (issue 32): the bounded search in the page's own worker, driven through its visible
// controls. On the lease without fencing it finds the paused holder's lost update, shrunk to one
// fault, and "Play it" opens that schedule as an ordinary run whose badge turns red; on the fenced
// world the same budget reports no counterexample within its bounds (never "safe"); a large search
// shows its progress moving while the page keeps drawing, and Cancel stops it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { openStepWorld, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const PROGRESS = '[data-testid=search-progress]';

async function openSearch(page, world) {
  await page.selectOption('[data-testid=protocol-picker]', world);
  await page.click('[data-testid=can-it-break-open]');
  await page.waitForSelector('[data-testid=search-go]');
}

async function setBudget(page, { depth, faults, states, horizon }) {
  for (const [id, value] of [['search-depth', depth], ['search-faults', faults], ['search-states', states], ['search-horizon', horizon]]) {
    await page.fill(`[data-testid=${id}]`, String(value));
    await page.press(`[data-testid=${id}]`, 'Tab');
  }
}

const searchState = (page) => page.getAttribute(PROGRESS, 'data-state');

async function waitForResult(page) {
  await waitUntil(async () => (await page.locator('[data-testid=search-result]').count()) > 0, {
    timeout: 180_000,
    what: 'the search result',
    detail: () => page.textContent(PROGRESS),
  });
  return page.textContent('[data-testid=search-headline]');
}

test('the lease without fencing breaks: found, shrunk, and played as an ordinary run', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await openSearch(page, 'no-fencing-pause.toml');
    await page.selectOption('[data-testid=search-goal]', 'No Lost Updates');
    await setBudget(page, { depth: 1, faults: 1, states: 20000, horizon: 4 });
    await page.click('[data-testid=search-go]');
    const headline = await waitForResult(page);
    assert.match(headline, /^Broken: No Lost Updates, with 1 step and 1 fault \([\d,]+ states searched\)\.$/);
    const steps = await page.$$eval('[data-testid=search-schedule] li', (items) => items.map((item) => item.textContent));
    assert.equal(steps.length, 1);
    assert.match(steps[0], /pause/i);
    await app.screenshot('can-it-break-found');

    await page.click('[data-testid=search-play]');
    await setSpeedPosition(page);
    await waitUntil(async () => (await violatedInvariants(page)).includes('No Lost Updates'), {
      timeout: 120_000,
      what: 'the played schedule to break No Lost Updates',
    });
    // The found schedule is the run's own schedule now: its pause is on the schedule lane and the title says where it came from.
    assert.match(await page.textContent('body'), /found by the search/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the fenced lock: no counterexample within the bounds, said as a bound', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await openSearch(page, 'fencing-pause.toml');
    await page.selectOption('[data-testid=search-goal]', 'No Lost Updates');
    await setBudget(page, { depth: 1, faults: 1, states: 200000, horizon: 4 });
    await page.click('[data-testid=search-go]');
    const headline = await waitForResult(page);
    assert.match(headline, /^No counterexample within depth 1 and 1 fault \([\d,]+ states\)\.$/);
    assert.doesNotMatch(headline.toLowerCase(), /safe/);
    assert.equal(await page.locator('[data-testid=search-play]').count(), 0);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a long search shows its progress, the page keeps drawing, and Cancel stops it at once', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await openSearch(page, 'fencing-pause.toml');
    await setBudget(page, { depth: 3, faults: 3, states: 500000, horizon: 20 });
    // This page's frame rate before the search, on this machine as loaded now: the search must not
    // take the page's frames away. A search on the main thread would leave none or one a second; a
    // worker on a 2-core machine shared with another test's browser leaves fewer frames (20 of 58 in
    // one CI run) but never that few.
    const framesInOneSecond = () => page.evaluate(() => new Promise((resolve) => {
      let count = 0;
      const start = performance.now();
      const tick = () => (performance.now() - start < 1000 ? (count++, requestAnimationFrame(tick)) : resolve(count));
      requestAnimationFrame(tick);
    }));
    const framesBefore = await framesInOneSecond();
    await page.click('[data-testid=search-go]');
    const statesNow = async () => Number((/^Searching: ([\d,]+) states/.exec(await page.textContent(PROGRESS)) ?? [0, '0'])[1].replaceAll(',', ''));
    const first = await waitUntil(statesNow, { timeout: 60_000, what: 'the first progress' });
    const later = await waitUntil(async () => ((await statesNow()) > first ? statesNow() : 0), { timeout: 30_000, what: 'progress to move' });
    assert.ok(later > first);
    assert.match(await page.textContent(PROGRESS), /states\/s · depth \d · frontier [\d,]+ · [\d,]+ duplicates · \d faults? in use/);
    // Progress at least four times a second: count the distinct texts over two seconds.
    const texts = await page.evaluate(async (selector) => {
      const seen = new Set();
      const until = performance.now() + 2000;
      while (performance.now() < until) {
        seen.add(document.querySelector(selector).textContent);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return seen.size;
    }, PROGRESS);
    assert.ok(texts >= 8, `${texts} progress updates in 2 s`);
    // The page's own frames keep coming while the worker searches.
    const frames = await framesInOneSecond();
    assert.ok(frames >= Math.min(10, framesBefore / 4), `${frames} frames in a second while searching, ${framesBefore} before`);
    await app.screenshot('can-it-break-running');

    const cancelledWithin = await page.evaluate(async (selector) => {
      const start = performance.now();
      document.querySelector('[data-testid=search-cancel]').click();
      while (document.querySelector(selector).getAttribute('data-state') !== 'cancelled') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (performance.now() - start > 1000) return Infinity;
      }
      return performance.now() - start;
    }, PROGRESS);
    assert.ok(cancelledWithin < 100, `Cancel answered in ${cancelledWithin} ms`);
    assert.match(await page.textContent(PROGRESS), /^Cancelled after [\d,]+ states/);
    assert.equal(await searchState(page), 'cancelled');
    // Go is offered again.
    assert.equal(await page.isEnabled('[data-testid=search-go]'), true);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 6 step 3: no lost update within the bound ticks the step; an example of the refusal then plays', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/fencing-tokens/step/3' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
    await page.click('[data-testid=can-it-break-open]');
    await page.selectOption('[data-testid=search-goal]', 'No Lost Updates');
    await setBudget(page, { depth: 1, faults: 1, states: 200000, horizon: 4 });
    await page.click('[data-testid=search-go]');
    assert.match(await waitForResult(page), /^No counterexample within depth 1 and 1 fault/);
    // The step lists "none_within_bound" among its answers (lessons/06-fencing-tokens.md): the
    // bounded answer is the point of the step, so it completes it.
    await waitForStepState(page, 3, 'done', 10_000);
    assert.match(await stepResult(page, 3), /The search answered: No counterexample within depth 1/);
    await page.waitForSelector('[data-testid=lesson-complete]', { timeout: 30_000 });

    await page.selectOption('[data-testid=search-goal]', 'example');
    await page.fill('[data-testid=search-checkpoint]', 'paused_holder_write_refused');
    await page.press('[data-testid=search-checkpoint]', 'Tab');
    await page.click('[data-testid=search-go]');
    await waitUntil(async () => (await searchState(page)) === 'starting' || (await searchState(page)) === 'running' || (await searchState(page)) === 'finished', { what: 'the second search to start' });
    await waitUntil(async () => (await page.getAttribute('[data-testid=search-result]', 'data-result').catch(() => null)) === 'example', {
      timeout: 180_000,
      what: 'an example of the refusal',
      detail: () => page.textContent(PROGRESS),
    });
    assert.match(await page.textContent('[data-testid=search-headline]'), /^Example found: paused_holder_write_refused, with 1 step and 1 fault/);
    await app.screenshot('can-it-break-lesson-example');
    await page.click('[data-testid=search-play]');
    await setSpeedPosition(page);
    // The played run is the found schedule: the late write comes and the fenced store loses nothing.
    await waitUntil(async () => /found by the search/.test(await page.textContent('body')), { what: 'the found run to open' });
    await waitUntil(async () => (await simTimeMs(page)) >= 4_000, { timeout: 120_000, what: 'the played run to pass its pause' });
    assert.ok(!(await violatedInvariants(page)).includes('No Lost Updates'));
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a budget number out of range is refused with a reason, and the field keeps its good value', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await openSearch(page, 'fencing-pause.toml');
    await setBudget(page, { depth: 2, faults: 1, states: 20000, horizon: 4 });
    await page.fill('[data-testid=search-states]', '0');
    await page.press('[data-testid=search-states]', 'Tab');
    const error = page.locator('[data-testid=search-budget-error]');
    await error.waitFor({ timeout: 10_000 });
    assert.match(await error.textContent(), /^States: “0” is not a whole number from 1 to [\d,]+; it stays 20,000\.$/);
    assert.equal(await page.inputValue('[data-testid=search-states]'), '20000');
    // A good number clears the sentence.
    await page.fill('[data-testid=search-states]', '30000');
    await page.press('[data-testid=search-states]', 'Tab');
    await waitUntil(async () => (await error.count()) === 0, { timeout: 10_000, what: 'the budget error to clear' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// Issue 32: a lesson's "can it break?" step is done by the search's own answer. Lesson 5's last step
// lists "found" (`search = {...}` in the lesson file): the learner predicts (on a wide screen, where the
// step's card is unfolded), asks the search on the paused lesson run, and the step ticks when the
// answer comes, before any run has lost an update; its line is the search's own sentence.
for (const [width, height, name] of [[1440, 900, 'desktop'], [390, 844, 'phone']]) {
  test(`lesson 5's can-it-break step is done when the search answers (${name})`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/distributed-locks/step/8' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="distributed-locks"]');
      if ((await step(page, 8).locator('[data-testid=open-step-world]').count()) > 0) await openStepWorld(page, 8);
      await waitForStepState(page, 8, 'open', 20_000);
      const question = step(page, 8).locator('[data-testid=predict]').first();
      const predicts = name === 'desktop';
      if (predicts) {
        await question.locator('[data-testid=predict-option]').first().click();
        assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /^Locked in\./);
      }

      await page.click('[data-testid=can-it-break-open]');
      await page.waitForSelector('[data-testid=search-go]');
      await page.selectOption('[data-testid=search-goal]', 'No Lost Updates');
      await setBudget(page, { depth: 1, faults: 1, states: 200000, horizon: 4 });
      await page.click('[data-testid=search-go]');
      const headline = await waitForResult(page);
      assert.match(headline, /^Broken: No Lost Updates/);
      await waitForStepState(page, 8, 'done', 10_000);
      assert.match(await stepResult(page, 8), /The search answered: Broken: No Lost Updates/);
      assert.ok(!(await violatedInvariants(page)).includes('No Lost Updates'), 'no played run lost an update: the answer ticked it');
      await page.waitForSelector('[data-testid=lesson-complete]', { timeout: 10_000 });
      if (predicts) {
        assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /^✓ Right: /);
        await step(page, 8).scrollIntoViewIfNeeded();
      } else {
        await page.locator('[data-testid=lesson-complete]').scrollIntoViewIfNeeded();
      }
      await app.screenshot(`can-it-break-lesson-step-${name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
