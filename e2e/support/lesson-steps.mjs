// A lesson's steps as the tests read and drive them: a step's element and state, waiting for a state,
// "show me" on one step, choosing a node on the ring the way a learner does (a click), and dropping
// n1's first OK from its message menu, and opening the next step's own world.
import assert from 'node:assert/strict';
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

/** Steps the paused run event by event until n1's first OK is in flight, then drops it from its menu. */
export async function dropFirstOkFromN1(page) {
  const firstOk = page.locator('[data-testid=cluster-view] g.message[data-kind="OK"][aria-label^="OK from n1 to "]').first();
  // Bounded: the first grant's OK leaves n1 within the first few dozen events of the run.
  for (let events = 0; events < 400 && (await firstOk.count()) === 0; events += 1) {
    await page.click('[data-testid=step-forward]');
  }
  assert.equal(await firstOk.count(), 1, "n1's first OK is on its way");
  await firstOk.dispatchEvent('click');
  await page.locator('[data-testid=message-menu] [data-testid=message-drop]').click();
}

/**
 * After a step ticks whose next step has a world of its own, the finished run stays on screen, paused,
 * with an "Open step N's world" button: presses it, as a learner doing the next step by hand must.
 */
export async function openStepWorld(page, number) {
  // The step's card holds one; the "Now" box at the panel's top (when shown) holds a second.
  const button = step(page, number).locator('[data-testid=open-step-world]');
  await button.waitFor({ timeout: 20_000 });
  assert.equal(await button.textContent(), `Open step ${number}'s world`);
  await button.click();
  await button.waitFor({ state: 'detached', timeout: 5_000 });
}

/**
 * The tick banner's line as drawn: its text without what is hidden (the sentence only read out to a
 * screen reader, words a small screen leaves out).
 */
export async function toastLineAsDrawn(page) {
  return page.locator('[data-testid=lesson-toast] .lesson-toast-line').evaluate((line) =>
    [...line.childNodes]
      .map((part) => {
        if (part.nodeType === Node.TEXT_NODE) return part.textContent;
        if (part.nodeType !== Node.ELEMENT_NODE || part.classList.contains('sr-only')) return '';
        return getComputedStyle(part).display === 'none' ? '' : part.innerText;
      })
      .join(''),
  );
}

/** Opens lesson `id` from the header's Lessons button and its entry in the list. */
export async function openFromList(page, id) {
  await page.click('[data-testid=lessons-button]');
  await page.locator(`[data-testid=lesson-item][data-lesson-id="${id}"] [data-testid=open-lesson]`).click();
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${id}"]`);
}
