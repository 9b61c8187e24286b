// The rest of issue 16's edge cases in the browser: lesson 10's tokens checked as a rising sequence
// across a failover of the lock service, and lesson 5's lost OK, whose "show me" now loses it by a
// brief one-way cut instead of naming a message id. Each through "show me" at both screen sizes, and
// each by hand: crash the service's leader from the inspector, and drop n1's first OK from its menu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { dropFirstOkFromN1, selectActor, showMe, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const TOKENS_ROSE = /after the failover \S+ was granted token \d+; \d+ grants? since the step began, each above the one before, none repeated/;
const REPLY_LOST = /SET NX was applied on the server, but the reply never reached it/;

async function openStep(id, number, width = 1440, height = 900) {
  const app = await openApp({ width, height, path: `/#/lesson/${id}/step/${number}` });
  await app.page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${id}"]`);
  await setSpeedPosition(app.page);
  return app;
}

for (const [width, height] of [
  [1440, 900],
  [1920, 1080],
]) {
  test(`show me: lesson 10's rising tokens and lesson 5's lost OK at ${width}x${height}`, async () => {
    const tokens = await openStep('guided-lab', 5, width, height);
    try {
      await showMe(tokens.page, 5);
      assert.match(await stepResult(tokens.page, 5), TOKENS_ROSE);
      await step(tokens.page, 5).scrollIntoViewIfNeeded();
      await tokens.screenshot(`lesson10-tokens-rose-${width}`);
      assertNoProblems(tokens);
    } finally {
      await tokens.close();
    }
    const lost = await openStep('distributed-locks', 4, width, height);
    try {
      await showMe(lost.page, 4);
      assert.match(await stepResult(lost.page, 4), REPLY_LOST);
      await step(lost.page, 4).scrollIntoViewIfNeeded();
      await lost.screenshot(`lesson5-reply-lost-by-cut-${width}`);
      assertNoProblems(lost);
    } finally {
      await lost.close();
    }
  });
}

test('lesson 10 step 5 by hand: crash the service leader named in the step, and the tokens keep rising', async () => {
  const app = await openStep('guided-lab', 5);
  const { page } = app;
  try {
    await waitForStepState(page, 5, 'open', 20_000);
    await page.click('[data-testid=play-toggle]');
    const leaderName = step(page, 5).locator('[data-testid=live-name][data-live=leader]');
    const leader = await waitUntil(async () => /^n\d+$/.exec((await leaderName.textContent()).trim())?.[0], {
      timeout: 20_000,
      what: 'the step to name the service leader',
    });
    assert.match(await step(page, 5).locator('[data-testid=step-verdict]').textContent(), /not failed over/);
    await selectActor(page, leader);
    await page.locator('[data-testid=inspector] button', { hasText: /^Crash$/ }).click();
    await waitForStepState(page, 5, 'done');
    assert.match(await stepResult(page, 5), TOKENS_ROSE);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test("lesson 5 step 4 by hand: step to n1's first OK, drop it from its menu, and the step ticks", async () => {
  const app = await openStep('distributed-locks', 4);
  const { page } = app;
  try {
    await waitForStepState(page, 4, 'open', 20_000);
    await dropFirstOkFromN1(page);
    await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 4, 'done');
    assert.match(await stepResult(page, 4), REPLY_LOST);
    await step(page, 4).scrollIntoViewIfNeeded();
    await app.screenshot('lesson5-reply-dropped-by-hand-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
