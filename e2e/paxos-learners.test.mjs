// Paxos learners as actors of their own (issue 13): the example with three learners L1-L3 loads from
// the picker, each learner is drawn as a diamond with the value it knows and the majority that told it,
// the cut-off L3 learns late after the heal, the Paxos card lists the learners, and Run settings shows
// the `learners` option with the example's value; the inspector tells a selected learner's value and
// the majority that told it; applying four learners redraws the world with L4.
// Screenshot: e2e/screenshots/paxos-learners-1440.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';

// n1..n5, A, B, then L1..L3: node ids 8, 9 and 10 as the page numbers them.
const LEARNERS = ['n8', 'n9', 'n10'];
const option = '[data-testid=world-option-paxos-learners]';

const learnerLabel = (page, id) => page.getAttribute(`[data-testid=node-${id}]`, 'aria-label');

test('Paxos learners: drawn apart from the proposers, each showing what it knows and why', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'paxos-learners.toml');
    for (const id of LEARNERS) {
      assert.equal(await page.locator(`[data-testid=node-${id}] .kind-learner`).count(), 1, `${id} is a diamond`);
    }
    // The run plays from the pick on: on a loaded machine L1 may have learned before this reads it,
    // which must then be after a round of messages, not at the start.
    const first = await learnerLabel(page, 'n8');
    if (!/^L1 learner · knows nothing yet/.test(first)) {
      const at = await simTimeMs(page);
      assert.ok(at >= 50, `L1 knew something at ${at} ms, before a round of messages (about 59 ms): ${first}`);
    }
    await setSpeedPosition(page);
    // Before the heal at 600 ms the cut-off L3 knows nothing while L1 knows the value.
    const early = await waitUntil(async () => {
      const label = await learnerLabel(page, 'n8');
      return /knows \w+/.test(label) && !/nothing/.test(label) && label;
    }, { timeout: 20_000, what: 'L1 to learn a value' });
    const value = /knows (\w+)/.exec(early)[1];
    assert.match(early, new RegExp(`^L1 learner · knows ${value}, accepted by n\\d( n\\d){2,4} in \\d+\\.[AB]`));
    if ((await simTimeMs(page)) < 550) {
      assert.match(await learnerLabel(page, 'n10'), /L3 learner · knows nothing yet/);
    }
    for (const [index, id] of LEARNERS.entries()) {
      await waitUntil(async () => (await learnerLabel(page, id)).includes(`knows ${value}, accepted by`), {
        timeout: 20_000,
        what: `L${index + 1} to know ${value}`,
      });
    }
    // The card follows the run a little behind the drawing.
    const card = new RegExp(`◇ L3 knows “${value}” is chosen: n\\d(, n\\d){2,4} accepted it in \\d+\\.[AB]`);
    await waitUntil(async () => card.test(await page.textContent('[data-testid=paxos-panel]')), {
      timeout: 20_000,
      what: 'the Paxos card to list what L3 learned',
    });
    assert.deepEqual(await violatedInvariants(page), [], 'no invariant broken');
    // The inspector says what a selected learner holds and which majority told it.
    await page.click('[data-testid=node-n10]');
    await waitUntil(async () => {
      const text = await page.textContent('[data-testid=inspector]');
      return text.includes(`knows ${value}`) && /because\s*accepted by n\d( n\d){2,4} in \d+\.[AB]/.test(text);
    }, { what: 'the inspector to show what L3 knows and why' });
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
    await app.screenshot('paxos-learners-1440');
    // Run settings lists the option from the registry, with the example's value; four learners redraw.
    const field = page.locator(option);
    await field.scrollIntoViewIfNeeded();
    assert.equal(await field.inputValue(), '3');
    assert.match(await page.textContent('[data-testid=world-options]'), /Learner actors L1, L2/);
    await field.fill('4');
    await page.click('[data-testid=apply-settings]');
    assert.equal(await page.locator('[data-testid=settings-error]').count(), 0);
    await waitUntil(async () => (await page.locator('[data-testid=node-n11] .kind-learner').count()) === 1, {
      what: 'the world with four learners to draw L4',
    });
    assert.match(await learnerLabel(page, 'n11'), /^L4 learner/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
