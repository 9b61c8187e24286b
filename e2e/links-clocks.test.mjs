// Link and clock controls (issue 4): "Click a link: cut one way / both ways / restore"; links show their
// state, "one-way cuts with an arrow"; "clock jump ±, drift"; a "clock skew badge when its clock is off";
// the inspector shows "local clock vs true time".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';

/** Opens the link menu by keyboard (the link is focusable and Enter opens it), then picks `choice`. */
async function chooseOnLink(page, low, high, choice) {
  const link = page.locator(`[data-testid=link-${low}-${high}]`);
  await link.focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('[data-testid=link-menu]');
  assert.match(await menu.getAttribute('aria-label'), new RegExp(`Link between ${low} and ${high}`));
  await menu.getByRole('button', { name: choice, exact: true }).click();
  assert.equal(await menu.count(), 0, 'choosing closes the menu');
}

async function readLink(page, low, high) {
  return page.$eval(`[data-testid=link-${low}-${high}]`, (link) => {
    const line = link.querySelector('.link-line');
    const matrix = line.getScreenCTM();
    const end = new DOMPoint(line.x2.baseVal.value, line.y2.baseVal.value).matrixTransform(matrix);
    return {
      classes: link.getAttribute('class'),
      label: link.getAttribute('aria-label'),
      marker: line.getAttribute('marker-end'),
      end: { x: end.x, y: end.y },
    };
  });
}

async function nodeCenter(page, id) {
  const box = await page.locator(`[data-testid=node-${id}]`).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

test('link menu: a one-way cut is drawn with its arrow, both ways dashed, and heal restores every link', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await waitForLeader(page);
    if (await isPlaying(page)) await page.click('[data-testid=play-toggle]'); // hold still: the picture is checked
    assert.equal((await readLink(page, 'n1', 'n2')).classes, 'link');

    await chooseOnLink(page, 'n1', 'n2', 'Cut n1 → n2');
    const oneWay = await readLink(page, 'n1', 'n2');
    assert.equal(oneWay.classes, 'link cut one-way');
    assert.equal(oneWay.marker, 'url(#arrow-cut)', 'a one-way cut has an arrow');
    assert.match(oneWay.label, /n1 to n2 is cut one way/);
    const [toN2, toN1] = [distance(oneWay.end, await nodeCenter(page, 'n2')), distance(oneWay.end, await nodeCenter(page, 'n1'))];
    assert.ok(toN2 < toN1, `the arrow points at n2 (its head is ${toN2.toFixed(0)} px from n2, ${toN1.toFixed(0)} px from n1)`);

    await chooseOnLink(page, 'n1', 'n2', 'Cut n2 → n1');
    const both = await readLink(page, 'n1', 'n2');
    assert.equal(both.classes, 'link cut', 'two one-way cuts make a link cut both ways');
    assert.equal(both.marker, null, 'no arrow once both ways are cut');

    await chooseOnLink(page, 'n1', 'n3', 'Cut both ways');
    assert.match((await readLink(page, 'n1', 'n3')).label, /cut both ways/);
    const dash = await page.$eval('[data-testid=link-n1-n3] .link-line', (line) => getComputedStyle(line).strokeDasharray);
    assert.notEqual(dash, 'none', 'a cut link is dashed, not told apart by colour alone');
    await app.screenshot('links-1-cuts');

    await chooseOnLink(page, 'n2', 'n3', 'Heal all links');
    for (const [low, high] of [['n1', 'n2'], ['n1', 'n3'], ['n2', 'n3']]) {
      assert.equal((await readLink(page, low, high)).classes, 'link', `${low}–${high} is up again`);
    }
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

/** The clock row of the inspector: local and true time, offset (ms, signed) and drift text. */
async function inspectorClock(page) {
  const text = await page.textContent('[data-testid=inspector]');
  const match = /offset ([+−])(\d+(?:\.\d)?) (ms|s), drift ([+−][\d.]+%)/.exec(text ?? '');
  assert.ok(match, `the inspector shows the clock: ${text}`);
  const magnitude = Number(match[2]) * (match[3] === 's' ? 1000 : 1);
  return { offsetMs: match[1] === '−' ? -magnitude : magnitude, drift: match[4] };
}

const clockBadge = async (page, id) => (await page.textContent(`[data-testid=node-${id}] .node-clock`)).trim();

test('clock controls: a jump shows a skew badge and the inspector clock differs from true time; drift grows it', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await waitForLeader(page);
    await page.keyboard.press('2');
    assert.equal((await clockBadge(page, 'n2')).trim(), '', 'no badge while the clock is right');
    assert.deepEqual(await inspectorClock(page), { offsetMs: 0, drift: '+0%' });

    const inspector = page.locator('[data-testid=inspector]');
    await inspector.getByRole('button', { name: 'Clock +500 ms', exact: true }).click();
    await waitUntil(async () => /clock \+500 ms/.test(await clockBadge(page, 'n2')), { what: 'the skew badge on n2' });
    assert.equal((await inspectorClock(page)).offsetMs, 500, 'the inspector clock runs 500 ms ahead of true time');

    await page.keyboard.press('3');
    assert.equal((await clockBadge(page, 'n3')).trim(), '', 'only n2 was moved');
    assert.equal((await inspectorClock(page)).offsetMs, 0);

    await page.keyboard.press('2');
    await inspector.getByRole('button', { name: 'Drift +10%', exact: true }).click();
    await setSpeedPosition(page);
    await waitUntil(async () => (await inspectorClock(page)).offsetMs >= 600, {
      what: 'the fast clock to pull further ahead',
    });
    assert.equal((await inspectorClock(page)).drift, '+10%');
    assert.match(await clockBadge(page, 'n2'), /\+10%/, 'the badge names the drift');
    await app.screenshot('clocks-1-skew-and-drift');

    // Paused first: at top speed the inspector redraws ten times a second and its text changes width, so
    // on a loaded machine a click could land on a button that had just moved (it once timed out here).
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => !(await isPlaying(page)), { what: 'the run to pause' });
    await inspector.getByRole('button', { name: 'Clock −500 ms', exact: true }).click();
    await waitUntil(async () => (await inspectorClock(page)).offsetMs < 500, { timeout: 30_000, what: 'the jump back' });
    await inspector.getByRole('button', { name: 'No drift', exact: true }).click();
    await waitUntil(async () => (await inspectorClock(page)).drift === '+0%', { timeout: 30_000, what: 'the drift to read +0%' });
    const settled = await inspectorClock(page);
    assert.ok(settled.offsetMs >= 100 && settled.offsetMs < 500, `jumping back takes 500 ms off: ${settled.offsetMs}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
