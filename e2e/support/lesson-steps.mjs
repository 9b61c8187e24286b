// A lesson's steps as the tests read and drive them: a step's element and state, waiting for a state,
// "show me" on one step, and choosing a node on the ring the way a learner does (a click).
import { waitUntil } from './cluster.mjs';

export const step = (page, number) => page.locator(`[data-testid=lesson-step-${number}]`);
export const stepState = (page, number) => step(page, number).getAttribute('data-state');
export const stepResult = (page, number) => step(page, number).locator('[data-testid=step-result]').textContent();

export async function waitForStepState(page, number, wanted, timeout = 60_000) {
  await waitUntil(async () => (await stepState(page, number)) === wanted, {
    timeout,
    what: `step ${number} to be ${wanted}`,
  });
}

/** Waits for the step to open, presses its "show me" and waits for it to tick. */
export async function showMe(page, number) {
  await waitForStepState(page, number, 'open', 20_000);
  await step(page, number).locator('[data-testid=show-me]').click();
  await waitForStepState(page, number, 'done');
}

/** Clicks node `name` (`n3`, `A`) on the ring, which selects it in the inspector. */
export async function selectActor(page, name) {
  await page
    .locator('[data-testid=cluster-view] g[data-testid^="node-"]', {
      has: page.locator('text.node-id', { hasText: new RegExp(`^${name}$`) }),
    })
    .click();
}
