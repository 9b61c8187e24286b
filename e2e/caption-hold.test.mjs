// Captions a room can read (issue 35, item 3): while the run plays at a demo's speed, a caption stays up by
// its length, and the moment that matters (the store refusing a stale write) is on screen long enough to
// read, not replaced by the next routine turn of the story.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

/** Starts recording, in the page, every caption change with the wall-clock instant it appeared. */
const recordCaptions = (page) =>
  page.evaluate(() => {
    window.__captions = [];
    const caption = document.querySelector('[data-testid=narration-caption]');
    const note = () => window.__captions.push({ text: caption.textContent.trim(), at: performance.now() });
    note();
    new MutationObserver(note).observe(caption, { childList: true, characterData: true, subtree: true });
  });

/** Each caption shown, with how long (ms, wall clock) it stayed; the last one is still showing. */
const shownCaptions = (page) =>
  page.evaluate(() => {
    const changes = window.__captions.filter((change, index, all) => index === 0 || change.text !== all[index - 1].text);
    return changes.map((change, index) => ({
      text: change.text,
      shownMs: (changes[index + 1]?.at ?? performance.now()) - change.at,
    }));
  });

test('at twice the default speed the stale-token refusal is captioned and stays long enough to read', async () => {
  const app = await openApp({ width: 1920, height: 1080, path: '/#/gallery/fencing-pause' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=narration-caption]');
    // Twice the default speed (0.2× real time): the walk-through's pace, where the refusal was never on
    // screen while playing.
    await page.keyboard.press('+');
    assert.match(await page.textContent('[data-testid=speed-label]'), /^0\.2× real time$/);
    await recordCaptions(page);
    const refusal = /refuses \w+'s (write|read): its token \d+ is below \d+/;
    await waitUntil(async () => (await shownCaptions(page)).some((caption) => refusal.test(caption.text)), {
      what: 'the refusal to be captioned',
      timeout: 90_000,
    });
    // Let the refusal's caption run its course (or longer), then judge how long it stood.
    await waitUntil(
      async () => {
        const captions = await shownCaptions(page);
        const index = captions.findIndex((caption) => refusal.test(caption.text));
        return index >= 0 && (index < captions.length - 1 || captions[index].shownMs > 12_000);
      },
      { what: 'the refusal caption to be replaced or to have stood 12 s', timeout: 60_000 },
    );
    const captions = await shownCaptions(page);
    const shown = captions.find((caption) => refusal.test(caption.text));
    const words = shown.text.split(/\s+/).length;
    // Four words a second, less a margin for frames on a loaded machine.
    const readingMs = Math.min(words * 250, 9_000);
    assert.ok(
      shown.shownMs >= readingMs,
      `"${shown.text}" (${words} words) stood ${Math.round(shown.shownMs)} ms; reading it takes about ${readingMs} ms`,
    );
    await app.screenshot('caption-hold-refusal');
    assert.ok(captions.length >= 2, `the story moved on at all: ${JSON.stringify(captions.map((caption) => caption.text))}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
