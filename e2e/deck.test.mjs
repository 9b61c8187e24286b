// The deck (issue 35 part D): in presenter mode PageDown / PageUp (a presentation clicker's keys) walk
// the gallery's scenarios and a lesson's steps, the bar says "Slide n of N — title" and its buttons
// move too, B blanks the screen until any key; the printable deck lists every gallery scenario in
// order with its link and a QR code that decodes back to that link, under a non-root path as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, waitUntil } from './support/cluster.mjs';

const position = (page) => page.textContent('[data-testid=deck-position]');
const title = (page) => page.textContent('[data-testid=scenario-title]');

async function galleryCards(page) {
  await page.click('[data-testid=gallery-button]');
  await page.waitForSelector('[data-testid=gallery]');
  const cards = await page.$$eval('[data-testid=gallery-item]', (items) =>
    items.map((item) => ({ id: item.dataset.galleryId, title: item.querySelector('h3').textContent.trim() })),
  );
  return cards;
}

test('PageDown and PageUp walk the gallery in presenter mode; B blanks until a key', async () => {
  const app = await openApp({ width: 1280, height: 720 });
  const { page } = app;
  try {
    const cards = await galleryCards(page);
    assert.ok(cards.length > 5, 'the gallery has cards to walk');
    await page.locator('[data-testid=gallery-item] [data-testid=gallery-open]').first().click();
    await waitUntil(async () => (await title(page)).includes(cards[0].title), { what: 'the first card to open' });
    assert.equal(await page.locator('[data-testid=deck-bar]').count(), 0, 'no deck bar outside presenter mode');
    await page.keyboard.press('f');
    await page.waitForSelector('[data-testid=deck-bar]');
    assert.equal(await position(page), `Slide 1 of ${cards.length} — ${cards[0].title}`);

    await page.keyboard.press('PageDown');
    await waitUntil(async () => (await position(page)).startsWith(`Slide 2 of ${cards.length}`), { what: 'slide 2' });
    assert.ok((await title(page)).includes(cards[1].title), 'the second card is on screen');
    assert.equal(new URL(page.url()).hash, `#/gallery/${cards[1].id}`);
    await page.keyboard.press('PageDown');
    await waitUntil(async () => (await title(page)).includes(cards[2].title), { what: 'the third card' });
    await page.keyboard.press('PageUp');
    await waitUntil(async () => (await position(page)).startsWith(`Slide 2 of ${cards.length} — ${cards[1].title}`), { what: 'back to slide 2' });
    await page.click('[data-testid=deck-previous]');
    await waitUntil(async () => (await title(page)).includes(cards[0].title), { what: 'the Previous button' });
    assert.ok(await page.locator('[data-testid=deck-previous]').isDisabled(), 'nothing before the first slide');
    await app.screenshot('deck-gallery-1280-presenter');

    // B: black over everything, the run paused behind it; a key only brings it back (K crashes nobody).
    if (!(await isPlaying(page))) await page.keyboard.press(' ');
    await page.keyboard.press('b');
    const blank = page.locator('[data-testid=deck-blank]');
    await blank.waitFor();
    const box = await blank.boundingBox();
    assert.deepEqual([box.x, box.y, box.width, box.height], [0, 0, 1280, 720], 'the blank covers the whole screen');
    assert.equal(await blank.evaluate((element) => getComputedStyle(element).backgroundColor), 'rgb(0, 0, 0)');
    const cluster = await page.locator('[data-testid=cluster-view]').boundingBox();
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.dataset.testid,
      [cluster.x + cluster.width / 2, cluster.y + cluster.height / 2],
    );
    assert.equal(onTop, 'deck-blank', 'the blank covers the cluster');
    assert.equal(await isPlaying(page), false, 'the run waits while the screen is blank');
    const crashed = () => page.locator('[data-testid=cluster-view] g[data-testid^="node-n"].status-crashed').count();
    const crashedBefore = await crashed();
    await page.keyboard.press('k');
    await waitUntil(async () => (await blank.count()) === 0, { what: 'a key to bring the picture back' });
    assert.equal(await isPlaying(page), true, 'the run plays on, as it did before the blank');
    assert.equal(await crashed(), crashedBefore, 'the key that unblanked did nothing else (K crashed no leader)');

    // "." (the other clicker key) blanks too, and a click restores.
    await page.keyboard.press('.');
    await blank.waitFor();
    await blank.click();
    await waitUntil(async () => (await blank.count()) === 0, { what: 'a click to bring the picture back' });

    await page.keyboard.press('f');
    assert.equal(await page.locator('[data-testid=deck-bar]').count(), 0, 'presenter mode off: no bar');
    await page.keyboard.press('?');
    const sheet = page.locator('[data-testid=shortcut-sheet]');
    assert.match(await sheet.textContent(), /PgDn \/ PgUp.*next \/ previous slide/);
    assert.match(await sheet.textContent(), /B or \..*blank the screen/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a lesson is a deck: its link opens in presenter mode and PageDown opens the next step', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/leader-election?presenter=on' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    await page.waitForSelector('[data-testid=deck-bar]');
    assert.equal(await page.getAttribute('[data-testid=presenter-toggle]', 'aria-pressed'), 'true');
    const steps = Number(/of (\d+)/.exec(await page.textContent('[data-testid=lesson-progress]'))[1]);
    assert.match(await position(page), new RegExp(`^Slide 1 of ${steps} — \\S`));
    await page.keyboard.press('PageDown');
    await waitUntil(async () => /step 2 of/.test(await page.textContent('[data-testid=lesson-progress]')), { timeout: 30_000, what: 'step 2' });
    assert.match(await position(page), new RegExp(`^Slide 2 of ${steps} — \\S`));
    assert.equal(new URL(page.url()).hash, '#/lesson/leader-election/step/2');
    await page.click('[data-testid=deck-previous]');
    await waitUntil(async () => /step 1 of/.test(await page.textContent('[data-testid=lesson-progress]')), { timeout: 30_000, what: 'back to step 1' });
    await app.screenshot('deck-lesson-1440-presenter');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

/** Draws a deck QR code's SVG on a canvas, as the browser renders it, and returns its pixels. */
async function qrPixels(page, index) {
  return page.evaluate(async (index) => {
    const svg = document.querySelectorAll('[data-testid=deck-qr]')[index];
    const text = new XMLSerializer().serializeToString(svg);
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    const image = new Image();
    image.src = url;
    await image.decode();
    const side = 400;
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, side, side);
    URL.revokeObjectURL(url);
    return { side, data: Array.from(context.getImageData(0, 0, side, side).data) };
  }, index);
}

test('the printed deck lists every gallery scenario in order, each QR code decoding to its link, under a sub-path', async () => {
  const prefix = '/courses/ql/';
  const app = await openApp({ width: 1440, height: 900, prefix });
  const { page } = app;
  try {
    const cards = await galleryCards(page);
    await page.click('[data-testid=gallery-deck]');
    await page.waitForSelector('[data-testid=deck-page] [data-testid=deck-slide]');
    assert.equal(new URL(page.url()).hash, '#/deck/gallery');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'deck-print-button', 'focus lands on Print');
    // The page covers the app, so its keys are the browser's: F does not switch presenter mode behind it.
    await page.keyboard.press('f');
    assert.equal(await page.getAttribute('[data-testid=presenter-toggle]', 'aria-pressed'), 'false');
    const slides = await page.$$eval('[data-testid=deck-slide]', (items) =>
      items.map((item) => ({ title: item.querySelector('h3').textContent, link: item.querySelector('[data-testid=deck-link]').getAttribute('href') })),
    );
    assert.equal(slides.length, cards.length, 'one slide per gallery card');
    assert.equal(await page.locator('[data-testid=deck-qr]').count(), cards.length, 'a QR code per slide');
    slides.forEach((slide, index) => {
      assert.equal(slide.title, `${index + 1}. ${cards[index].title}`, 'in the gallery order');
      assert.equal(slide.link, `${app.url}/#/gallery/${cards[index].id}?presenter=on`);
    });
    for (const index of [0, Math.floor(cards.length / 2), cards.length - 1]) {
      const { side, data } = await qrPixels(page, index);
      const decoded = jsQR(Uint8ClampedArray.from(data), side, side);
      assert.ok(decoded, `QR code ${index + 1} decodes`);
      assert.equal(decoded.data, slides[index].link, `QR code ${index + 1} holds its link`);
    }

    // Printed: the deck alone, no app chrome, each slide kept whole.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.app-header').isVisible(), false, 'no header in print');
    assert.equal(await page.locator('[data-testid=deck-print-button]').isVisible(), false, 'no Print button in print');
    assert.equal(await page.locator('[data-testid=deck-slide]').first().evaluate((element) => getComputedStyle(element).breakInside), 'avoid');
    await page.emulateMedia({ media: 'screen' });

    // A link from the deck opens its slide, under the sub-path, in presenter mode.
    const target = slides[1].link;
    await page.goto('about:blank');
    await page.goto(target);
    await page.waitForSelector('[data-testid=deck-bar]');
    assert.ok(new URL(page.url()).pathname.startsWith(prefix));
    assert.equal(await position(page), `Slide 2 of ${cards.length} — ${cards[1].title}`);
    // A view query that cannot be read is refused whole, and nothing changes.
    await page.evaluate((id) => { location.hash = `#/gallery/${id}?presenter=maybe`; }, cards[2].id);
    await waitUntil(async () => /could not be opened/.test((await page.textContent('[data-testid=notice]')) ?? ''), { what: 'the refusal' });
    assert.match(await page.textContent('[data-testid=notice]'), /presenter/);
    assert.ok((await title(page)).includes(cards[1].title), 'the slide on screen stays');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a lesson deck is offered in the lesson list and lists every step with its link', async () => {
  const app = await openApp({ width: 390, height: 844, page: { hasTouch: true, isMobile: true } });
  const { page } = app;
  try {
    await page.tap('[data-testid=lessons-button]');
    const entry = page.locator('[data-testid=lesson-item][data-lesson-id=fencing-tokens]');
    const steps = Number(/of (\d+) steps/.exec(await entry.locator('[data-testid=lesson-item-progress]').textContent())[1]);
    await entry.locator('[data-testid=lesson-deck]').tap();
    await page.waitForSelector('[data-testid=deck-page] [data-testid=deck-slide]');
    const links = await page.$$eval('[data-testid=deck-link]', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    assert.equal(links.length, steps, 'a slide per step');
    links.forEach((link, index) => {
      const step = index === 0 ? '' : `/step/${index + 1}`;
      assert.equal(link, `${app.url}/#/lesson/fencing-tokens${step}?presenter=on`);
    });
    const { side, data } = await qrPixels(page, links.length - 1);
    assert.equal(jsQR(Uint8ClampedArray.from(data), side, side)?.data, links.at(-1));
    await page.tap('[data-testid=deck-page-close]');
    assert.equal(await page.locator('[data-testid=deck-page]').count(), 0);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a locked embed of a deck slide gets neither the bar nor the deck keys', async () => {
  const app = await openApp({ width: 1280, height: 720 });
  const { page } = app;
  try {
    const cards = await galleryCards(page);
    await page.evaluate((id) => { location.hash = `#/gallery/${id}?presenter=on`; }, cards[0].id);
    await page.waitForSelector('[data-testid=deck-bar]');
    // The same run, shared and reopened locked (as an embed in a slide would be): nothing may change it.
    await page.click('[data-testid=share-button]');
    const shared = await waitUntil(async () => (/#\/run\/v4\//.test(page.url()) ? new URL(page.url()).hash : null), { what: 'the share link' });
    const locked = `${shared}${shared.includes('?') ? '&' : '?'}controls=locked`;
    await page.evaluate((hash) => { location.hash = hash; }, locked);
    await waitUntil(async () => (await page.getAttribute('[data-testid=app-root]', 'class')).includes('kiosk-locked'), { what: 'the locked page' });
    assert.ok((await title(page)).includes(cards[0].title), 'the same run is on screen');
    assert.equal(await page.locator('[data-testid=deck-bar]').count(), 0, 'no deck bar when locked');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('b');
    await page.waitForTimeout(300);
    assert.ok((await title(page)).includes(cards[0].title), 'PageDown opened no other slide');
    assert.equal(await page.locator('[data-testid=deck-blank]').count(), 0, 'B blanked nothing');
    // The same link with full controls is the deck again: only the lock took the bar away.
    await page.evaluate((hash) => { location.hash = hash; }, locked.replace('controls=locked', 'controls=full'));
    await page.waitForSelector('[data-testid=deck-bar]');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
