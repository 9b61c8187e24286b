// Small layout glitches from the issue 30 walk-through (item 16), checked where a learner sees them, at
// 1280×720, 1440×900 and 1920×1080 (and the captions on a 390×844 touch phone): no node's words cut at
// the stage's edge (a PBFT client's "waits on…", a parked server's "not a member"); the PBFT slots table
// inside its card; Paxos's eight nodes with captions clear of each other; the run's title whole, not
// "Raft pla…" at 1440 and gone at 1280.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, simTimeMs, waitForLeader, waitUntil } from './support/cluster.mjs';

const LOADED = { timeout: 45_000 };
const DESKS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const PHONE = { width: 390, height: 844, page: { hasTouch: true, isMobile: true } };

/** Every non-empty caption's box and words, and the stage's box. */
function readCaptions(page) {
  return page.evaluate(() => {
    const stage = document.querySelector('[data-testid=cluster-view]').getBoundingClientRect();
    const captions = [...document.querySelectorAll('[data-testid=cluster-view] .node-caption, [data-testid=cluster-view] .liar-label')]
      .filter((text) => text.textContent.trim() !== '')
      .map((text) => {
        const { left, right, top, bottom } = text.getBoundingClientRect();
        return { words: text.textContent.trim(), node: text.closest('g.node')?.getAttribute('data-testid'), left, right, top, bottom };
      });
    return { stage: { left: stage.left, right: stage.right, top: stage.top, bottom: stage.bottom }, captions };
  });
}

function assertInsideTheStage({ stage, captions }, where) {
  assert.ok(captions.length > 0, `${where}: captions to check`);
  for (const caption of captions) {
    assert.ok(caption.left >= stage.left - 0.5 && caption.right <= stage.right + 0.5,
      `${where}: "${caption.words}" (${caption.node}) is whole inside the stage: ${JSON.stringify({ caption, stage })}`);
  }
}

/** Runs the world at top speed until sim time passes `ms`. */
async function runUntil(page, ms) {
  await page.locator('input[aria-label="Playback speed"]').fill('1000');
  if (!(await page.textContent('[data-testid=play-toggle]')).includes('Pause')) await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => (await simTimeMs(page)) > ms, { ...LOADED, what: `the run to pass ${ms} ms` });
  await page.click('[data-testid=play-toggle]');
}

for (const viewport of [...DESKS, PHONE]) {
  const size = `${viewport.width}×${viewport.height}`;
  test(`${size}: node captions stay inside the stage (PBFT clients waiting, servers outside the configuration)`, async () => {
    const app = await openApp(viewport);
    const { page } = app;
    try {
      // PBFT with two of four replicas made silent by hand, one more than it tolerates: client A, on the
      // ring's left, waits for good and says so in a long caption.
      await page.selectOption('[data-testid=protocol-picker]', 'pbft-normal.toml');
      await page.waitForSelector('[data-testid=pbft-panel]', LOADED);
      for (const node of ['n1', 'n2']) {
        await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
        const target = page.locator(`[data-testid=cluster-view] [data-testid=node-${node}]`);
        if (viewport.page) await target.tap(); else await target.click();
        const silent = page.locator('[data-testid=node-popover] button', { hasText: /^Go silent$/ });
        if (viewport.page) await silent.tap(); else await silent.click();
        await page.keyboard.press('Escape');
      }
      await page.locator('input[aria-label="Playback speed"]').fill('1000');
      if (!(await page.textContent('[data-testid=play-toggle]')).includes('Pause')) await page.click('[data-testid=play-toggle]');
      const pbft = await waitUntil(async () => {
        const read = await readCaptions(page);
        return read.captions.some((caption) => /waits on .*faulty/.test(caption.words)) ? read : null;
      }, { ...LOADED, what: 'client A to wait on more faults than PBFT tolerates', detail: async () => (await readCaptions(page)).captions.map((caption) => caption.words) });
      await page.click('[data-testid=play-toggle]');
      assertInsideTheStage(pbft, `${size} PBFT`);
      await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
      await app.screenshot(`lesson-menu-layout-${viewport.width}-pbft`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
    // The playground with a server removed by hand from its menu: it waits outside the configuration,
    // parked in the stage's bottom-left corner, saying "not a member".
    const second = await openApp(viewport);
    try {
      const { page: playground } = second;
      await playground.waitForSelector('[data-testid=cluster-view] [data-testid=node-n5]', LOADED);
      await waitForLeader(playground, LOADED);
      await playground.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
      const target = playground.locator('[data-testid=cluster-view] [data-testid=node-n5]');
      if (viewport.page) await target.tap(); else await target.click();
      const remove = playground.locator('[data-testid=node-popover] button', { hasText: /^Remove this server$/ });
      if (viewport.page) await remove.tap(); else await remove.click();
      await playground.keyboard.press('Escape');
      await playground.locator('input[aria-label="Playback speed"]').fill('1000');
      if (!(await playground.textContent('[data-testid=play-toggle]')).includes('Pause')) await playground.click('[data-testid=play-toggle]');
      const parked = await waitUntil(async () => {
        const read = await readCaptions(playground);
        return read.captions.some((caption) => /not a member/.test(caption.words)) ? read : null;
      }, { ...LOADED, what: 'n5 outside the configuration' });
      await playground.click('[data-testid=play-toggle]');
      assertInsideTheStage(parked, `${size} membership`);
      await playground.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
      await second.screenshot(`lesson-menu-layout-${viewport.width}-membership`);
      assertNoProblems(second);
    } finally {
      await second.close();
    }
  });
}

for (const { width, height } of DESKS) {
  test(`${width}×${height}: the run's title is whole and off the ring; Paxos's eight captions stay apart`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      const title = page.locator('[data-testid=scenario-title]');
      await waitUntil(async () => /Raft playground/.test(await title.textContent()), { ...LOADED, what: 'the run\'s title' });
      assert.ok(await title.isVisible(), `${width}: the run's title is shown`);
      const cut = await title.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
      assert.equal(cut, false, `${width}: the run's title is not cut short`);
      const titleBox = await title.boundingBox();
      assert.ok(titleBox.x >= 0 && titleBox.x + titleBox.width <= width, `${width}: the title is on screen`);
      const bodies = await page.$$eval('[data-testid=cluster-view] g.node .node-body', (found) => found.map((body) => {
        const { left, right, top, bottom } = body.getBoundingClientRect();
        return { left, right, top, bottom };
      }));
      for (const body of bodies) {
        const apart = titleBox.x + titleBox.width <= body.left || body.right <= titleBox.x || titleBox.y + titleBox.height <= body.top || body.bottom <= titleBox.y;
        assert.ok(apart, `${width}: the title leaves every node visible: ${JSON.stringify({ titleBox, body })}`);
      }
      await app.screenshot(`lesson-menu-layout-${width}-title`);

      await page.selectOption('[data-testid=protocol-picker]', 'paxos-duel.toml');
      await page.waitForSelector('[data-testid=cluster-view] [data-testid=node-n8]', LOADED);
      await runUntil(page, 600);
      const { captions } = await readCaptions(page);
      assert.equal(new Set(captions.map((caption) => caption.node)).size, 8, 'eight nodes with captions');
      for (const [index, one] of captions.entries()) {
        for (const other of captions.slice(index + 1)) {
          if (one.node === other.node) continue;
          const apart = one.right <= other.left || other.right <= one.left || one.bottom <= other.top || other.bottom <= one.top;
          assert.ok(apart, `${width}: "${one.words}" (${one.node}) and "${other.words}" (${other.node}) do not overlap`);
        }
      }
      await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
      await app.screenshot(`lesson-menu-layout-${width}-paxos`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

for (const viewport of [...DESKS, PHONE]) {
  const { width, height } = viewport;
  test(`${width}×${height}: the PBFT slots table stays inside its card, its chips wrapping`, async () => {
    const app = await openApp(viewport);
    const { page } = app;
    try {
      await page.selectOption('[data-testid=protocol-picker]', 'pbft-byzantine-primary.toml');
      await page.waitForSelector('[data-testid=pbft-panel]', LOADED);
      await runUntil(page, 4_000);
      await page.locator('[data-testid=pbft-replicas]').scrollIntoViewIfNeeded();
      const table = await page.evaluate(() => {
        const card = document.querySelector('[data-testid=pbft-panel]').getBoundingClientRect();
        const replicas = document.querySelector('[data-testid=pbft-replicas]').getBoundingClientRect();
        const slots = [...document.querySelectorAll('[data-testid=pbft-replicas] .slot')].map((slot) => slot.getBoundingClientRect().right);
        return { card: card.right, table: replicas.right, slots: Math.max(0, ...slots), count: slots.length, page: document.documentElement.scrollWidth };
      });
      assert.ok(table.count > 0, 'the table shows slots');
      assert.ok(table.table <= table.card + 0.5 && table.slots <= table.card + 0.5, `${width}: the slots table stays in its card: ${JSON.stringify(table)}`);
      assert.ok(table.page <= width, `${width}: nothing pushes the page sideways: ${JSON.stringify(table)}`);
      await app.screenshot(`lesson-menu-layout-${width}-pbft-table`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
