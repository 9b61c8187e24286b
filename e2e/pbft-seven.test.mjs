// PBFT at seven replicas and the selectively silent mode (issue 13: "views that make the state readable
// at 5–7 nodes"; "go selectively silent"): the seven-replica example drawn with every replica on screen,
// no two replicas or their captions on top of each other, at 1440x900 and 1920x1080, its five honest
// replicas agreeing past two liars; and a primary made selectively silent from its popover, named in
// the narration with the backups it ignores, replaced by a view change while Honest Agreement holds.
// Screenshots: e2e/screenshots/pbft-seven-*.png, pbft-selective-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const narration = (page) => page.$$eval('[data-testid=narration-line] .narration-text', (lines) => lines.map((line) => line.textContent));

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

async function play(page) {
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
}

function overlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Each node's body and caption boxes, as drawn on screen, and whether it is a replica (a server). */
async function replicaBoxes(page) {
  return page.$$eval('[data-testid=cluster-view] g[data-testid^="node-n"]', (nodes) =>
    nodes.map((node) => {
      const box = (element) => {
        const rect = element?.getBoundingClientRect();
        return rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      };
      return {
        id: node.getAttribute('data-testid'),
        replica: node.querySelector('circle.node-body') !== null,
        body: box(node.querySelector('.node-body')),
        caption: box(node.querySelector('.node-caption')),
        captionPx: parseFloat(getComputedStyle(node.querySelector('.node-caption') ?? node).fontSize),
      };
    }),
  );
}

for (const [width, height] of [[1440, 900], [1920, 1080]]) {
  test(`seven PBFT replicas at ${width}x${height}: all on screen, none on another, five honest ones agree`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await page.selectOption('[data-testid=protocol-picker]', 'pbft-seven.toml');
      await pause(page);
      // The seven replicas, and the two clients drawn beside them: none may cover another.
      const boxes = await replicaBoxes(page);
      const replicas = boxes.filter((box) => box.replica);
      assert.equal(replicas.length, 7, `seven replicas: ${replicas.map((box) => box.id)}`);
      const stage = await page.locator('[data-testid=cluster-view]').boundingBox();
      for (const { id, body, caption } of boxes) {
        assert.ok(body.x >= stage.x - 1 && body.x + body.width <= stage.x + stage.width + 1, `${id} inside the drawing`);
        assert.ok(body.width >= 24, `${id} big enough to read: ${body.width} px`);
        assert.ok(caption, `${id} has a caption`);
      }
      for (let one = 0; one < boxes.length; one += 1) {
        for (let other = one + 1; other < boxes.length; other += 1) {
          const [a, b] = [boxes[one], boxes[other]];
          assert.ok(!overlap(a.body, b.body), `${a.id} and ${b.id} drawn apart`);
          assert.ok(!overlap(a.caption, b.caption), `${a.id}'s and ${b.id}'s captions apart`);
        }
      }
      await setSpeedPosition(page);
      await play(page);
      await waitUntil(async () => (await simTimeMs(page)) > 3_000, { timeout: 30_000, what: 'the run to pass 3 s' });
      await pause(page);
      assert.match(await page.textContent('[data-testid=leader-chip]'), /primary of view [1-9]/, 'the equivocating primary was replaced');
      assert.ok(!(await violatedInvariants(page)).includes('Honest Agreement'), 'five honest replicas agree');
      assert.match(await page.textContent('[data-testid=pbft-panel]'), /n = 7 replicas tolerate f = 2/);
      await app.screenshot(`pbft-seven-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('a primary made selectively silent from its popover: named with whom it ignores, then replaced', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'pbft-normal.toml');
    await pause(page);
    await page.click('[data-testid=node-n1]');
    await page.waitForSelector(POPOVER);
    const button = page.locator(`${POPOVER} button[aria-label^="Go silent to half, make n1 Byzantine"]`);
    assert.equal(await button.count(), 1, 'the popover offers selective silence');
    await button.click();
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await narration(page)).some((line) => /sends nothing to n3 and n4, and keeps talking to n2/.test(line)), {
      what: 'the narration to name whom n1 ignores',
    });
    await setSpeedPosition(page);
    await play(page);
    await waitUntil(async () => /primary of view [1-9]/.test(await page.textContent('[data-testid=leader-chip]')), {
      timeout: 30_000,
      what: 'a view change past the half-silent primary',
    });
    await pause(page);
    assert.ok(!(await violatedInvariants(page)).includes('Honest Agreement'));
    await app.screenshot('pbft-selective-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
