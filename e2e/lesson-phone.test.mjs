// A lesson on a phone (issue 30, item 4): at 390×844 with touch, lesson 1's first step done by hand with
// taps only. The lesson's text folds away, so the step in hand sits right above the cluster and both are
// on screen together; the live name in the instruction ("now B") is a button that reaches the node and
// opens its actions; the tick is announced in a banner over the cluster, where the learner is looking,
// with what comes next. Screenshots: e2e/screenshots/lesson-phone-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';
import { stepState, toastLineAsDrawn } from './support/lesson-steps.mjs';

const PHONE = { width: 390, height: 844, page: { hasTouch: true, isMobile: true } };
const CURRENT = '[data-testid=current-step]';
const POPOVER = '[data-testid=node-popover]';

/** The element's box in the window, or null when it is not drawn. */
const box = (page, selector) => page.locator(selector).first().boundingBox();

/** Whether the element is wholly inside the window's height. */
async function inWindow(page, selector) {
  const found = await box(page, selector);
  return found !== null && found.y >= 0 && found.y + found.height <= PHONE.height;
}

test('lesson 1 step 1 on a 390×844 touch phone: step and cluster together, tap the live name, the tick by the cluster', async () => {
  const app = await openApp(PHONE);
  const { page } = app;
  try {
    await page.locator('[data-testid=lessons-button]').tap();
    const entry = page.locator('[data-testid=lesson-item][data-lesson-id="exactly-once"]');
    await entry.locator('[data-testid=open-lesson]').tap();
    await page.waitForSelector(`${CURRENT} [data-testid=live-name][data-live=lock_holder]`);

    // The lesson's text is folded; the step in hand is the last thing above the cluster.
    for (const fold of ['lesson-text-fold', 'lesson-steps-fold', 'lesson-after-fold', 'lesson-interview-fold']) {
      assert.equal(await page.locator(`[data-testid=${fold}]`).evaluate((element) => element.open), false, `${fold} is folded on a phone`);
    }
    // Only the play prompt stands between the step in hand and the cluster.
    // Read at one instant (the page may still be scrolling to the step).
    const [step, prompt, cluster] = await page.evaluate((selectors) => selectors.map((selector) => {
      const rect = document.querySelector(selector).getBoundingClientRect();
      return { y: rect.top, height: rect.height };
    }), [CURRENT, '[data-testid=lesson-waiting]', '[data-testid=cluster-view]']);
    assert.ok(step.y + step.height <= prompt.y && prompt.y + prompt.height <= cluster.y, 'step, then play prompt, then cluster');
    assert.ok(cluster.y - (step.y + step.height) < 200, `the cluster follows the step in hand closely (${cluster.y - (step.y + step.height)} px)`);
    await waitUntil(async () => inWindow(page, CURRENT), { what: 'the page to scroll to the step in hand' });
    const clusterTop = await page.locator('[data-testid=cluster-view]').evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    assert.ok(clusterTop < 1_200, `the cluster is near the top of the page, not thousands of px down (${clusterTop} px)`);
    assert.ok(await inWindow(page, '[data-testid=lesson-play]'), 'the play prompt is on screen');
    await app.screenshot('lesson-phone-1-opened');

    await page.locator('[data-testid=lesson-play]').tap();
    await page.waitForSelector('[data-testid=lesson-waiting]', { state: 'detached' });
    // The instruction names the instance marked ★ (B with this seed); a tap on its name reaches it.
    const holder = page.locator(`${CURRENT} [data-testid=live-name][data-live=lock_holder]`);
    const name = await waitUntil(async () => {
      const text = (await holder.textContent()).trim();
      return ['A', 'B'].includes(text) ? text : null;
    }, { timeout: 20_000, what: 'the instruction to name the lease holder' });
    await holder.tap();
    await page.waitForSelector(POPOVER);
    assert.match(await page.locator(POPOVER).getAttribute('aria-label'), new RegExp(`^Actions on ${name}$`), 'the tap opened the named node\'s actions');
    assert.ok(await inWindow(page, POPOVER), 'the actions are on screen');
    await app.screenshot('lesson-phone-2-live-name-tapped');
    await page.locator(`${POPOVER} button[aria-label="Crash ${name}"]`).tap();

    // The tick is announced by the cluster: the banner is over it and on screen.
    const toast = page.locator('[data-testid=lesson-toast]');
    await toast.waitFor({ timeout: 60_000 });
    assert.equal(await stepState(page, 1), 'done', 'the banner follows a real tick');
    assert.match(await toastLineAsDrawn(page), /^✓ Step 1 done · Read step 2\s*$/, 'on one line: step 2 itself is in hand right above the cluster');
    assert.match(await page.textContent(`${CURRENT} .current-step-kicker`), /Now: step 2/);
    // What the simulation saw is read out with it (drawn, it covered the ring's nodes).
    assert.match(await page.textContent('[data-testid=toast-what-happened]'), /: minutes? [\d, –]+ went by without an invoice/);
    const banner = await toast.boundingBox();
    const panel = await box(page, '.cluster-panel');
    assert.ok(banner.y >= panel.y && banner.y + banner.height <= panel.y + panel.height + 1, 'the banner sits over the cluster');
    assert.ok(await inWindow(page, '[data-testid=lesson-toast]'), 'and on screen where the learner acted');
    assert.match(await page.textContent(`${CURRENT} .current-step-kicker`), /Now: step 2/, 'the step in hand is step 2');
    await app.screenshot('lesson-phone-3-ticked');

    // "Read step 2" brings the new step in hand on screen; the lesson text is still a tap away.
    await page.locator('[data-testid=toast-read-step]').tap();
    await waitUntil(async () => inWindow(page, CURRENT), { what: 'step 2 on screen after "Read step 2"' });
    await page.locator('[data-testid=lesson-text-fold] > summary').tap();
    assert.equal(await page.locator('[data-testid=lesson-text-fold]').evaluate((element) => element.open), true, 'a fold opens on a tap');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
