// Linked views, presenter mode, the header and actor names (issue 4): "a space-time (Lamport) diagram of
// recent messages, linked with the cluster view (hover a message in one highlights it in the other)";
// "a presenter mode: large type, controls and cluster only, high contrast"; and in coordination worlds
// every view calls a node by the name the ring gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';

const CLUSTER_DOTS = '[data-testid=cluster-view] g.message[data-message-id]';
const ARROWS = '[data-testid=spacetime] g.st-arrow[data-message-id]';

const ids = (page, selector) =>
  page.$$eval(selector, (elements) => elements.map((element) => element.getAttribute('data-message-id')));

/**
 * Where the pointer can rest on each message in flight that both views draw, alone (not under another
 * message or a node): the dot's centre, and a point near the arrow's arrival end (arrows sent together
 * share their start).
 */
async function hoverablePoints(page) {
  return page.evaluate(() => {
    const owner = (x, y) => document.elementFromPoint(x, y)?.closest('[data-message-id]');
    const points = [];
    for (const dot of document.querySelectorAll('[data-testid=cluster-view] g.message[data-message-id]')) {
      const id = dot.getAttribute('data-message-id');
      const arrow = document.querySelector(`[data-testid=spacetime] g.st-arrow[data-message-id="${id}"] .st-hit`);
      if (!arrow) continue;
      const box = dot.getBoundingClientRect();
      const dotPoint = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const along = arrow.getPointAtLength(arrow.getTotalLength() * 0.85);
      const arrowPoint = new DOMPoint(along.x, along.y).matrixTransform(arrow.getScreenCTM());
      if (owner(dotPoint.x, dotPoint.y) === dot && owner(arrowPoint.x, arrowPoint.y) === arrow.parentElement) {
        points.push({ id, dot: dotPoint, arrow: { x: arrowPoint.x, y: arrowPoint.y } });
      }
    }
    return points;
  });
}

/** Steps event by event until some message can be hovered on its own in both views. */
async function messageInBothViews(page) {
  for (let step = 0; step < 300; step += 1) {
    const [found] = await hoverablePoints(page);
    if (found) return found;
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(60); // the diagram catches up within 40 ms of a step
  }
  throw new Error('no message could be hovered alone in both views within 300 events');
}

const hasClass = (page, selector, name) =>
  page.$eval(selector, (element, name) => element.classList.contains(name), name);

test('hovering a message in one view highlights the same message in the other', async () => {
  // Tall enough for the cluster and the diagram to be on screen together (the fault-schedule lane now
  // sits between them).
  const app = await openApp({ width: 1440, height: 1900 });
  const { page } = app;
  try {
    await waitForLeader(page);
    if (await isPlaying(page)) await page.keyboard.press('Space');
    const { id, dot: dotPoint, arrow: arrowPoint } = await messageInBothViews(page);
    const dot = `${CLUSTER_DOTS.replace('[data-message-id]', '')}[data-message-id="${id}"]`;
    const arrow = `${ARROWS.replace('[data-message-id]', '')}[data-message-id="${id}"]`;
    assert.equal(await hasClass(page, arrow, 'hovered'), false);

    await page.mouse.move(dotPoint.x, dotPoint.y);
    await waitUntil(() => hasClass(page, arrow, 'hovered'), { what: 'the arrow to light up when its dot is hovered' });
    assert.match(await page.getAttribute('[data-testid=spacetime] svg', 'class'), /has-hover/, 'the rest of the diagram dims');
    const others = (await ids(page, ARROWS)).filter((other) => other !== id);
    for (const other of others.slice(0, 5)) {
      assert.equal(await hasClass(page, `${ARROWS.replace('[data-message-id]', '')}[data-message-id="${other}"]`, 'hovered'), false);
    }
    await app.screenshot('hover-1-dot-to-arrow');

    await page.mouse.move(2, 2);
    await waitUntil(async () => !(await hasClass(page, arrow, 'hovered')), { what: 'the highlight to clear' });

    await page.mouse.move(arrowPoint.x, arrowPoint.y);
    await waitUntil(() => hasClass(page, dot, 'hovered'), { what: 'the dot to light up when its arrow is hovered' });
    assert.match(await page.textContent('.spacetime-caption'), /→/, 'the caption says who sent it to whom');
    await app.screenshot('hover-2-arrow-to-dot');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

/** WCAG contrast ratio of two computed `rgb(...)` colours. */
function contrast(foreground, background) {
  const luminance = (color) => {
    const [r, g, b] = color.match(/\d+(\.\d+)?/g).slice(0, 3).map((channel) => {
      const value = Number(channel) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

async function presenterLook(page) {
  return page.evaluate(() => {
    const style = (selector) => {
      const element = document.querySelector(selector);
      return element ? getComputedStyle(element) : null;
    };
    const shown = (selector) => {
      const element = document.querySelector(selector);
      return Boolean(element && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden');
    };
    return {
      rootFont: parseFloat(style('[data-testid=app-root]').fontSize),
      buttonFont: parseFloat(style('[data-testid=play-toggle]').fontSize),
      muted: style('[data-testid=scenario-title]').color,
      header: style('.app-header').backgroundColor,
      shown: Object.fromEntries(
        [
          '[data-testid=cluster-view]',
          '[data-testid=play-toggle]',
          '[data-testid=scrubber]',
          '[data-testid=checker-badges]',
          '[data-testid=spacetime]',
          '[data-testid=import-export]',
          '[data-testid=log-strips]',
        ].map((selector) => [selector, shown(selector)]),
      ),
    };
  });
}

test('presenter mode: large type, the cluster and its controls only, higher contrast', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await waitForLeader(page);
    const normal = await presenterLook(page);
    await page.click('[data-testid=presenter-toggle]');
    const presenter = await presenterLook(page);
    await app.screenshot('presenter-1-on');

    assert.ok(presenter.rootFont >= 20 && presenter.rootFont >= normal.rootFont * 1.25, `type grows: ${normal.rootFont} → ${presenter.rootFont} px`);
    assert.ok(presenter.buttonFont >= 20, `controls grow too: ${presenter.buttonFont} px`);
    const [before, after] = [contrast(normal.muted, normal.header), contrast(presenter.muted, presenter.header)];
    assert.ok(after >= 7 && after > before, `secondary text contrast ${before.toFixed(1)} → ${after.toFixed(1)} (AAA is 7)`);
    for (const kept of ['[data-testid=cluster-view]', '[data-testid=play-toggle]', '[data-testid=scrubber]', '[data-testid=checker-badges]']) {
      assert.equal(presenter.shown[kept], true, `${kept} stays`);
    }
    for (const gone of ['[data-testid=spacetime]', '[data-testid=import-export]', '[data-testid=log-strips]']) {
      assert.equal(normal.shown[gone], true, `${gone} is shown normally`);
      assert.equal(presenter.shown[gone], false, `${gone} is hidden in presenter mode`);
    }
    await page.click('[data-testid=presenter-toggle]');
    assert.equal((await presenterLook(page)).rootFont, normal.rootFont, 'and back');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

/** The header's visible items as rows: the distinct vertical centres, merged within a few pixels. */
async function headerLayout(page) {
  return page.$eval('.app-header', (header) => {
    const items = [...header.children].filter((child) => child.getClientRects().length > 0);
    const centres = items.map((child) => {
      const box = child.getBoundingClientRect();
      return { centre: box.top + box.height / 2, right: box.right };
    });
    const rows = [];
    for (const { centre } of centres.sort((a, b) => a.centre - b.centre)) {
      if (!rows.length || centre - rows.at(-1) > 8) rows.push(centre);
    }
    return {
      rows: rows.length,
      overflows: header.scrollWidth > header.clientWidth,
      widestRight: Math.max(...centres.map((item) => item.right)),
      items: items.length,
    };
  });
}

for (const width of [1440, 1280]) {
  test(`the header fits on one line at ${width} px`, async () => {
    const app = await openApp({ width, height: 800 });
    try {
      const layout = await headerLayout(app.page);
      await app.page.locator('.app-header').screenshot({ path: `${process.cwd()}/e2e/screenshots/header-${width}.png` });
      assert.ok(layout.items >= 8, `the header has its controls: ${layout.items}`);
      assert.equal(layout.rows, 1, `one row of header items at ${width} px`);
      assert.equal(layout.overflows, false);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('on a wide screen the tagline shows whole, still on one line', async () => {
  // From 1900 px: below that the header gives the tagline up so that its controls keep one line.
  const app = await openApp({ width: 1920, height: 800 });
  try {
    // The run's print (16 hex digits, shown once the run has begun) is the header's widest moment.
    await app.page.waitForFunction(() => /[0-9a-f]{16}/.test(document.querySelector('.run-fingerprint')?.textContent ?? ''), null, { timeout: 15_000 });
    const layout = await headerLayout(app.page);
    assert.equal(layout.rows, 1);
    const tagline = await app.page.$eval('.tagline', (element) => ({
      shown: element.getClientRects().length > 0,
      cut: element.scrollWidth > element.clientWidth,
    }));
    assert.deepEqual(tagline, { shown: true, cut: false });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('below 1280 px the header wraps onto more lines without spilling sideways', async () => {
  const app = await openApp({ width: 1000, height: 800 });
  try {
    const layout = await headerLayout(app.page);
    await app.page.locator('.app-header').screenshot({ path: `${process.cwd()}/e2e/screenshots/header-1000.png` });
    assert.ok(layout.rows >= 2, `it wraps: ${layout.rows} rows`);
    assert.equal(layout.overflows, false, 'nothing spills out of the header');
    assert.ok(layout.widestRight <= 1000, `every item is on screen (rightmost edge ${layout.widestRight})`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('in a coordination world the logs and the space-time lanes use the ring\'s names', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await setSpeedPosition(page);
    const ring = new Set(await page.$$eval('[data-testid=cluster-view] text.node-id', (names) => names.map((name) => name.textContent.trim())));
    assert.ok(ring.has('A') && ring.has('store'), `the ring names the actors: ${[...ring]}`);
    const lanes = await waitUntil(
      async () => {
        const labels = await page.$$eval('[data-testid=spacetime] .st-lane-label', (texts) => texts.map((text) => text.textContent.trim()));
        return labels.includes('A') ? labels : null;
      },
      { what: 'a lane for worker A' },
    );
    for (const label of lanes.filter((label) => !/others$/.test(label))) {
      assert.ok(ring.has(label), `lane "${label}" is a name on the ring (${[...ring]})`);
    }
    const strips = await page.$$eval('[data-testid=log-strips] .strip-node', (names) => names.map((name) => name.textContent.replace('★', '').trim()));
    assert.ok(strips.includes('A') && strips.includes('store'), `strips are named like the ring: ${strips}`);
    for (const strip of strips) assert.ok(ring.has(strip), `strip "${strip}" is a name on the ring`);
    await app.screenshot('names-1-coordination');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
