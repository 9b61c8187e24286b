// Never colour alone: under `forced-colors: active` (Windows high contrast, emulated in Chromium) the
// browser replaces the page's colours, so every role must still differ by shape, dash, weight or glyph.
// Each test reads, for every kind of thing, a signature with hue left out and requires them all distinct
// (and visible: nothing painted in the background colour). The same holds without forced colours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

/** Reads every node's category (leader, follower, candidate, crashed, paused) and its colourless look. */
async function nodeLooks(page) {
  return page.$$eval('[data-testid=cluster-view] g.node', (nodes) => {
    const canvas = getComputedStyle(document.documentElement).backgroundColor;
    return nodes.map((node) => {
      const classes = node.getAttribute('class');
      const role = /role-([a-z-]+)/.exec(classes)[1].replace('pre-', '');
      const status = /status-([a-z]+)/.exec(classes)[1];
      const body = getComputedStyle(node.querySelector('.node-body'));
      const crash = node.querySelector('.crash-mark line');
      const crashShown = crash !== null && getComputedStyle(crash).stroke !== canvas && Number(getComputedStyle(crash).opacity) > 0;
      const look = [
        body.strokeWidth,
        body.strokeDasharray,
        node.querySelector('.node-icon')?.textContent.trim() ?? '',
        crashShown ? 'crossed' : '',
        node.querySelector('.pause-mark') ? 'paused' : '',
      ].join(' | ');
      return {
        category: status === 'up' ? role : status,
        look,
        visible: body.stroke !== canvas && body.stroke !== 'none' && body.stroke !== body.fill,
      };
    });
  });
}

/** Every message dot's kind and colourless look: size, hollow or solid, dash, caption. */
async function messageLooks(page) {
  return page.$$eval('[data-testid=cluster-view] g.message[data-message-id]', (messages) => {
    const canvas = getComputedStyle(document.documentElement).backgroundColor;
    return messages.map((message) => {
      const dot = message.querySelector('circle:not(.message-hit)');
      const kind = /msg-[a-z-]+/.exec(message.getAttribute('class'))[0];
      if (!dot) return { kind, look: 'dropped ✕', visible: true };
      const style = getComputedStyle(dot);
      const hollow = style.fill === canvas || style.fill === 'none' || style.fill === 'rgba(0, 0, 0, 0)';
      return {
        kind: message.classList.contains('dropped') ? 'dropped' : kind,
        look: [dot.getAttribute('r'), hollow ? 'hollow' : 'solid', style.strokeDasharray, message.querySelector('.message-caption')?.textContent ?? ''].join(' | '),
        visible: !(hollow && (style.stroke === canvas || style.stroke === 'none')),
      };
    });
  });
}

/** Steps the paused run event by event, collecting looks by category until every wanted one was seen. */
async function collect(page, read, wanted, what) {
  const seen = new Map();
  for (let step = 0; step < 600 && !wanted.every((key) => seen.has(key)); step += 1) {
    for (const { category = undefined, kind = undefined, look, visible } of await read(page)) {
      const key = category ?? kind;
      assert.ok(visible, `${key} is visible (${look})`);
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key).add(look);
    }
    await page.keyboard.press('ArrowRight');
  }
  assert.ok(wanted.every((key) => seen.has(key)), `${what}: wanted ${wanted.join(', ')}; seen ${[...seen.keys()]}`);
  return seen;
}

/** No look may be shared by two categories. */
function assertDistinct(seen, what) {
  const owner = new Map();
  for (const [key, looks] of seen) {
    for (const look of looks) {
      assert.ok(!owner.has(look) || owner.get(look) === key, `${what}: ${key} and ${owner.get(look)} both look like "${look}"`);
      owner.set(look, key);
    }
  }
}

for (const forcedColors of ['active', 'none']) {
  test(`with forced-colors: ${forcedColors}, roles, node states, message kinds and timeline marks differ without colour`, async () => {
    const app = await openApp({ page: { forcedColors } });
    const { page } = app;
    try {
      assert.equal(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), forcedColors === 'active');
      // Paused, then stepped: every event's picture is seen, however busy the machine is.
      await page.click('[data-testid=play-toggle]');
      const messages = await collect(page, messageLooks, ['msg-vote-request', 'msg-vote-granted', 'msg-heartbeat'], 'message kinds');
      await page.keyboard.press('w');
      for (const [kind, looks] of await collect(page, messageLooks, ['msg-append', 'msg-append-ok'], 'replication')) {
        if (!messages.has(kind)) messages.set(kind, new Set());
        looks.forEach((look) => messages.get(kind).add(look));
      }
      assertDistinct(messages, 'messages');

      // The space-time diagram: the leader's lane carries a star; the kinds of arrows differ by dash or weight.
      const arrows = await page.$$eval('[data-testid=spacetime] g.st-arrow', (elements) => elements.map((arrow) => {
        const line = getComputedStyle(arrow.querySelector('.st-line'));
        const kind = arrow.classList.contains('dropped') ? 'dropped' : /msg-[a-z-]+/.exec(arrow.getAttribute('class'))[0];
        return { kind, look: `${line.strokeWidth} ${line.strokeDasharray}`, visible: line.stroke !== 'none' };
      }));
      const arrowLooks = new Map();
      for (const arrow of arrows) arrowLooks.set(arrow.kind, new Set([...(arrowLooks.get(arrow.kind) ?? []), arrow.look]));
      if (forcedColors === 'active') assertDistinct(arrowLooks, 'space-time arrows');
      const stars = await page.$$eval('[data-testid=spacetime] .st-lane-star', (elements) => elements.filter((star) => getComputedStyle(star).display !== 'none').length);
      assert.equal(stars, 1, 'one lane, the leader\'s, is starred');

      await page.keyboard.press('k');
      const nodes = await collect(page, nodeLooks, ['leader', 'follower', 'candidate', 'crashed'], 'node roles');
      for (let step = 0; step < 600 && !(await nodeLooks(page)).some((node) => node.category === 'leader'); step += 1) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('p');
      for (const [category, looks] of await collect(page, nodeLooks, ['paused'], 'a paused leader')) {
        if (!nodes.has(category)) nodes.set(category, new Set());
        looks.forEach((look) => nodes.get(category).add(look));
      }
      assertDistinct(nodes, 'nodes');
      await app.screenshot(`forced-colors-${forcedColors}-roles`);

      const marks = await page.$$eval('[data-testid=timeline] .mark', (elements) => {
        const canvas = getComputedStyle(document.documentElement).backgroundColor;
        return elements.map((mark) => {
          const style = getComputedStyle(mark);
          return { kind: /mark-([a-z]+)/.exec(mark.getAttribute('class'))[1], look: `${style.width} ${style.height} ${style.borderRadius}`, shown: style.backgroundColor !== canvas };
        });
      });
      const markLooks = new Map();
      for (const mark of marks) {
        assert.ok(mark.shown, `the ${mark.kind} mark is painted`);
        markLooks.set(mark.kind, new Set([...(markLooks.get(mark.kind) ?? []), mark.look]));
      }
      assert.ok(markLooks.has('fault') && markLooks.has('leader'), `fault and leader marks: ${[...markLooks.keys()]}`);
      const legend = await page.$$eval('[data-testid=timeline] .legend', (elements) => elements.map((item) => getComputedStyle(item, '::before').backgroundColor));
      const canvas = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      assert.ok(legend.length === 3 && legend.every((color) => color !== canvas), `the legend's swatches are painted: ${legend}`);
      assertDistinct(markLooks, 'timeline marks');

      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('with forced colours, a lock holder keeps both lease arcs and the scheduler strip keeps its cells', async () => {
  const app = await openApp({ page: { forcedColors: 'active' } });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await page.waitForSelector('[data-testid^=lease-ring-]');
    const arcs = await page.$$eval('[data-testid^=lease-ring-] .lease-arc', (elements) => {
      const canvas = getComputedStyle(document.documentElement).backgroundColor;
      return elements.map((arc) => ({ width: getComputedStyle(arc).strokeWidth, stroke: getComputedStyle(arc).stroke, canvas }));
    });
    assert.ok(arcs.length >= 2, 'a holder has two arcs');
    for (const arc of arcs) assert.notEqual(arc.stroke, arc.canvas, 'an arc is painted');
    assert.ok(new Set(arcs.map((arc) => arc.width)).size >= 2, `own and service arcs differ in weight: ${JSON.stringify(arcs)}`);
    // A lease bar that is filled must show its fill against its track (forced colours paint both white).
    await page.locator('input[aria-label="Playback speed"]').fill('1000');
    const bars = await waitUntil(async () => {
      const read = await page.$$eval('.lease-bar', (elements) => elements.map((bar) => ({
        track: getComputedStyle(bar).backgroundColor,
        fill: getComputedStyle(bar.firstElementChild).backgroundColor,
        width: parseFloat(bar.firstElementChild.style.width) || 0,
      })));
      return read.some((bar) => bar.width > 0) && read;
    }, { what: 'a lease held' });
    for (const bar of bars.filter((bar) => bar.width > 0)) assert.notEqual(bar.fill, bar.track, `a lease bar's fill shows: ${JSON.stringify(bar)}`);
    await app.screenshot('forced-colors-fencing');

    await page.selectOption('[data-testid=protocol-picker]', 'scheduler-none.toml');
    await page.locator('input[aria-label="Playback speed"]').fill('1000');
    await page.waitForSelector('.strip-cells .minute.ran');
    const cells = await page.$$eval('.strip-cells .minute', (elements) => elements.map((cell) => ({
      ran: cell.classList.contains('ran'), background: getComputedStyle(cell).backgroundColor,
    })));
    const ran = new Set(cells.filter((cell) => cell.ran).map((cell) => cell.background));
    const idle = new Set(cells.filter((cell) => !cell.ran).map((cell) => cell.background));
    assert.ok(ran.size > 0 && [...ran].every((color) => !idle.has(color)), `a minute that ran looks unlike one that did not: ${[...ran]} / ${[...idle]}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
