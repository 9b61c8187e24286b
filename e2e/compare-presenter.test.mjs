// Compare mode in presenter mode at 1920×1080 (issue 15, with issue 4's presenter mode): both runs
// fit on the projector, each side's cluster drawing wholly on screen, its title, badges and caption
// at presenter size (20 px, the size presenter mode's own test asks of its type and controls), nothing
// wider than the screen; and the keyboard drives both sides on one clock: space plays and pauses both,
// → steps both, and the two runs, saved together, stop at the same instant the playback bar shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

const WIDTH = 1920;
const HEIGHT = 1080;
/** Presenter mode's type size (views.test.mjs asks it of the page's type and of its buttons). */
const PRESENTER_PX = 20;
/** Node names in the drawing, which scales to fit half the screen: a little under the page's type. */
const NODE_NAME_PX = 18;

const side = (name) => `[data-testid=compare-${name}]`;
const sideHash = (page, name) => page.getAttribute(`${side(name)} [data-testid=side-trace-hash]`, 'data-trace-hash');
const hashes = async (page) => [await sideHash(page, 'left'), await sideHash(page, 'right')];
const caption = (page, name) => page.textContent(`${side(name)} [data-testid=narration-caption]`);

/** What a side looks like on screen: its drawing's box, and the rendered size of its words. */
async function sideLook(page, name) {
  return page.$eval(side(name), (element) => {
    const fontPx = (node) => (node ? parseFloat(getComputedStyle(node).fontSize) : 0);
    const svg = element.querySelector('[data-testid=cluster-view]');
    const drawing = svg.getBoundingClientRect();
    // The drawing keeps its proportions inside its box: the tighter of the two fits sets its scale.
    const [, , boxWidth, boxHeight] = svg.getAttribute('viewBox').split(' ').map(Number);
    const scale = Math.min(drawing.width / boxWidth, drawing.height / boxHeight);
    const badges = [...element.querySelectorAll('[data-testid=checker-badges] li.badge')];
    return {
      drawing: { left: drawing.left, right: drawing.right, top: drawing.top, bottom: drawing.bottom, width: drawing.width },
      side: { left: element.getBoundingClientRect().left, right: element.getBoundingClientRect().right },
      title: fontPx(element.querySelector('.compare-side-title')),
      caption: fontPx(element.querySelector('[data-testid=narration-caption]')),
      badges: badges.map((badge) => ({
        name: badge.getAttribute('data-invariant'),
        px: fontPx(badge.querySelector('.badge-name') ?? badge),
        shown: badge.getClientRects().length > 0,
      })),
      nodeName: scale * fontPx(svg.querySelector('.node-id')),
      nodes: svg.querySelectorAll('g[data-testid^="node-"]').length,
    };
  });
}

/** Saves both runs with "Export both traces" and returns each file's end record. */
async function exportBothEnds(page) {
  const downloads = [];
  const listener = (download) => downloads.push(download);
  page.on('download', listener);
  await page.click('[data-testid=compare-export]');
  await waitUntil(() => downloads.length === 2, { what: 'both trace files' });
  page.off('download', listener);
  return Promise.all(
    downloads.map(async (download) => JSON.parse((await readFile(await download.path(), 'utf8')).trimEnd().split('\n').at(-1))),
  );
}

test('presenter mode shows both runs legibly at 1920×1080, and the keyboard plays and steps both', async () => {
  const app = await openApp({ width: WIDTH, height: HEIGHT });
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=compare-stage]');
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    // Until the right side has broken a promise, so a violated badge (with its sentence) is drawn too.
    await waitUntil(async () => (await page.locator(`${side('right')} li.badge.violated`).count()) > 0, {
      timeout: 30_000,
      what: 'the right side to lose an update',
    });
    await page.evaluate(() => document.activeElement?.blur());

    await page.keyboard.press('f');
    assert.match(await page.getAttribute('[data-testid=app-root]', 'class'), /\bpresenter\b/);
    assert.equal(await page.getAttribute('[data-testid=presenter-toggle]', 'aria-pressed'), 'true');
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false, 'space pauses both');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-presenter-1-1920');

    const overflow = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
    assert.ok(overflow.page <= WIDTH && overflow.body <= WIDTH, `no sideways scrolling: ${JSON.stringify(overflow)}`);
    const difference = await page.$eval('[data-testid=compare-difference]', (line) => parseFloat(getComputedStyle(line).fontSize));
    assert.ok(difference >= PRESENTER_PX, `the difference line at ${difference} px`);
    const looks = { left: await sideLook(page, 'left'), right: await sideLook(page, 'right') };
    for (const [name, look] of Object.entries(looks)) {
      const smallestBadge = Math.min(...look.badges.map((badge) => badge.px));
      console.log(`# ${name}: drawing ${JSON.stringify(look.drawing)}; title ${look.title} px, caption ${look.caption} px, badges >= ${smallestBadge} px, node names ${look.nodeName.toFixed(1)} px`);
    }
    for (const [name, look] of Object.entries(looks)) {
      const { drawing } = look;
      assert.ok(drawing.left >= 0 && drawing.right <= WIDTH && drawing.top >= 0 && drawing.bottom <= HEIGHT, `the ${name} drawing is wholly on screen: ${JSON.stringify(drawing)}`);
      assert.ok(drawing.width >= 0.45 * WIDTH, `the ${name} drawing has about half the screen's width: ${drawing.width} px`);
      assert.ok(look.side.left >= 0 && look.side.right <= WIDTH, `the ${name} side within the screen`);
      assert.equal(look.nodes, 6, `the ${name} drawing has its six actors (three servers, the store, two workers)`);
      assert.ok(look.nodeName >= NODE_NAME_PX, `${name} node names at ${look.nodeName.toFixed(1)} px`);
      assert.ok(look.title >= PRESENTER_PX, `${name} title at ${look.title} px`);
      assert.ok(look.caption >= PRESENTER_PX, `${name} caption at ${look.caption} px`);
      assert.ok(look.badges.length >= 3, `${name} shows its badges`);
      for (const badge of look.badges) {
        assert.ok(badge.shown && badge.px >= PRESENTER_PX, `${name} badge ${badge.name} at ${badge.px} px`);
      }
    }
    assert.ok(looks.left.drawing.right <= looks.right.drawing.left, 'the two drawings side by side, not overlapping');
    assert.ok(Math.abs(looks.left.drawing.top - looks.right.drawing.top) <= 2, 'the broken promises on the right do not push its drawing below the left one');

    // Space plays both on one clock, and pauses both.
    const paused = { time: await simTimeMs(page), hashes: await hashes(page) };
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), true);
    await waitUntil(async () => {
      const now = await hashes(page);
      return now[0] !== paused.hashes[0] && now[1] !== paused.hashes[1];
    }, { what: 'both sides to move while playing' });
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false);
    const held = await hashes(page);
    await page.waitForTimeout(300);
    assert.deepEqual(await hashes(page), held, 'paused, neither side moves');
    assert.ok((await simTimeMs(page)) > paused.time);

    // → steps both: each caption tells its step, and both runs stop at the instant the bar shows.
    for (let step = 0; step < 4; step += 1) {
      const before = await hashes(page);
      const timeBefore = await simTimeMs(page);
      await page.keyboard.press('ArrowRight');
      await waitUntil(async () => {
        const now = await hashes(page);
        return now[0] !== before[0] || now[1] !== before[1];
      }, { what: 'a step to change one side' });
      assert.match(await caption(page, 'left'), /^Step: /);
      assert.match(await caption(page, 'right'), /^Step: /);
      assert.ok((await simTimeMs(page)) >= timeBefore);
    }
    assert.equal(await isPlaying(page), false);
    const ends = await exportBothEnds(page);
    const shown = await simTimeMs(page);
    assert.equal(ends[0].position_us, ends[1].position_us, 'after the steps both clocks read the same');
    assert.equal(Math.floor(ends[0].position_us / 1_000), shown, 'and the playback bar shows that instant');
    assert.deepEqual([ends[0].trace_hash, ends[1].trace_hash], await hashes(page));
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-presenter-2-stepped');
    await page.keyboard.press('f');
    assert.doesNotMatch(await page.getAttribute('[data-testid=app-root]', 'class'), /\bpresenter\b/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
