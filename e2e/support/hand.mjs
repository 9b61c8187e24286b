// A learner's hand on the page: every press first brings the control into view (scrolling as a learner
// would), then requires it to be drawn, wholly inside the window and on top at the point pressed (not
// covered by a menu, a banner or another node), and presses exactly there: a mouse click on a laptop,
// a tap on a touch phone. A control that fails any of these throws an error that says which and why.
import { simTimeMs } from './cluster.mjs';

/** Where a press on `locator` lands: the centre of its box, or the first of `fractions` along it that is on top. */
async function pressPoint(page, locator, fractions, hitWithin) {
  const box = await locator.boundingBox();
  if (!box) return { box, point: null, cover: 'not drawn' };
  let cover = null;
  for (const [fx, fy] of fractions) {
    const point = { x: box.x + box.width * fx, y: box.y + box.height * fy };
    const hit = await locator.evaluate((element, { x, y, within }) => {
      const found = document.elementFromPoint(x, y);
      const owner = within ? element.closest(within) : element;
      if (found && owner && (owner === found || owner.contains(found))) return null;
      if (!found) return 'nothing (outside the page)';
      const id = found.closest('[data-testid]')?.getAttribute('data-testid');
      const classes = (found.getAttribute('class') ?? '').trim().split(/\s+/).filter(Boolean).map((name) => `.${name}`).join('');
      return `${found.tagName.toLowerCase()}${classes}${id ? ` in [data-testid=${id}]` : ''}`;
    }, { ...point, within: hitWithin });
    if (hit === null) return { box, point, cover: null };
    cover ??= hit;
  }
  return { box, point: null, cover };
}

const CENTRE = [[0.5, 0.5]];

export class Hand {
  constructor(page, viewport) {
    this.page = page;
    this.viewport = viewport;
    this.touch = Boolean(viewport.page?.hasTouch);
    // What got in the way and how it was got round, for the walk's report.
    this.notes = [];
  }

  /** Throws unless `box` is wholly inside the window. */
  assertInWindow(box, what) {
    const { width, height } = this.viewport;
    const inside = box && box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
    if (!inside) throw new Error(`${what} is not inside the ${width}×${height} window after scrolling to it: ${JSON.stringify(box)}`);
  }

  /**
   * Brings `locator` into view as a learner scrolls to it and returns the point to press: it must be
   * shown, wholly inside the window and on top there. `fractions` are points inside its box to try, in
   * order (a slanted link is pressed on its line); `hitWithin` (a selector) accepts a hit anywhere in
   * that ancestor (a node's name drawn on its body).
   */
  async reach(locator, what, { fractions = CENTRE, timeout = 15_000, hitWithin = null } = {}) {
    const target = locator.first();
    await target.waitFor({ state: 'visible', timeout }).catch(() => {
      throw new Error(`${what} is not shown`);
    });
    await target.scrollIntoViewIfNeeded({ timeout });
    let found = await pressPoint(this.page, target, fractions, hitWithin);
    if (!found.point) {
      // Under a bar that sticks to the window's edge: a learner scrolls it to the middle and tries again.
      await target.evaluate((element) => element.scrollIntoView({ block: 'center', inline: 'center' }));
      found = await pressPoint(this.page, target, fractions, hitWithin);
    }
    if (!found.point && /toast/.test(found.cover ?? '')) {
      // The tick banner over the cluster: a learner closes it with its ✕ and presses again.
      this.notes.push(`${what} was covered by the tick banner (${found.cover}); closed the banner`);
      await this.press(this.page.locator('[data-testid=toast-dismiss]'), 'the tick banner\'s ✕');
      found = await pressPoint(this.page, target, fractions, hitWithin);
    }
    const { box, point, cover } = found;
    this.assertInWindow(box, what);
    if (!point) throw new Error(`${what} cannot be pressed: covered by ${cover}, even scrolled to the middle of the window`);
    return point;
  }

  /** Presses `locator` where `reach` found it on top: a click, or a tap on a touch screen. */
  async press(locator, what, options = {}) {
    const point = await this.reach(locator, what, options);
    if (this.touch) await this.page.touchscreen.tap(point.x, point.y);
    else await this.page.mouse.click(point.x, point.y);
  }

  /**
   * Presses a line drawn in SVG (a link) at a point along it that is inside the window and on top.
   * A level line has no height, so Playwright never calls it visible: the points come from its ends.
   */
  async pressLine(locator, what) {
    const target = locator.first();
    await target.waitFor({ state: 'attached', timeout: 15_000 });
    // Scrolled to the window's middle first, as a learner brings what they want to press there: a
    // point at the edge, next to a bar stuck to the window's foot, is a tap the bar's buttons may take.
    for (const block of ['center', 'nearest']) {
      await target.evaluate((element, how) => element.scrollIntoView({ block: how, inline: how }), block);
      await this.settle();
      const point = await target.evaluate((group, [width, height]) => {
        const line = group.querySelector('line.link-hit') ?? group.querySelector('line');
        const matrix = line.getScreenCTM();
        const at = (x, y) => new DOMPoint(x, y).matrixTransform(matrix);
        const a = at(line.x1.baseVal.value, line.y1.baseVal.value);
        const b = at(line.x2.baseVal.value, line.y2.baseVal.value);
        for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
          const x = a.x + (b.x - a.x) * t;
          const y = a.y + (b.y - a.y) * t;
          if (x < 0 || y < 0 || x > width || y > height) continue;
          const found = document.elementFromPoint(x, y);
          if (found && group.contains(found)) return { x, y };
        }
        return null;
      }, [this.viewport.width, this.viewport.height]);
      if (point) {
        if (this.touch) await this.page.touchscreen.tap(point.x, point.y);
        else await this.page.mouse.click(point.x, point.y);
        return;
      }
    }
    throw new Error(`${what} cannot be pressed: no point along it is inside the window and on top`);
  }

  /** Waits (up to a second) until the page has not scrolled for two frames: text above may still be growing. */
  async settle() {
    await this.page
      .waitForFunction(
        () =>
          new Promise((resolve) => {
            const before = scrollY;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(scrollY === before)));
          }),
        null,
        { timeout: 1_000 },
      )
      .catch(() => {});
  }

  /** Chooses `value` in a menu (a select) the learner can see. */
  async choose(locator, value, what) {
    await this.reach(locator, what);
    await locator.first().selectOption(value);
  }

  /** Types into a field the learner can see (pressing it first, as a learner does). */
  async type(locator, text, what) {
    await this.press(locator, what);
    await locator.first().fill(text);
  }

  /** The visible playback controls. */
  playToggle() {
    return this.page.locator('[data-testid=play-toggle]');
  }

  async playing() {
    return (await this.playToggle().textContent()).includes('Pause');
  }

  async setPlaying(wanted) {
    if ((await this.playing()) !== wanted) await this.press(this.playToggle(), wanted ? 'the Play button' : 'the Pause button');
  }

  /** Moves the visible speed slider to `share` of real time (0.005 to 2), as a learner drags it. */
  async setSpeed(share) {
    const slider = this.page.locator('input[aria-label="Playback speed"]');
    await slider.scrollIntoViewIfNeeded();
    this.assertInWindow(await slider.boundingBox(), 'the speed slider');
    const speed = Math.min(20, Math.max(0.05, share * 10));
    const position = Math.round((1000 * Math.log(speed / 0.05)) / Math.log(400));
    await slider.fill(String(position));
  }

  /**
   * Plays the run until its clock reads `targetMs` (or `stop()` says to stop), then pauses: each stretch
   * plays at the speed that covers what is left in about two seconds, and pauses a little early by the
   * time a press takes on a loaded machine, so the run creeps up on the moment and stops within a few ms
   * of it. The Pause press goes to where the button was found before playing (it stays put while the
   * run plays). Returns the time reached.
   */
  async playTo(targetMs, stop = async () => false) {
    for (let rounds = 0; rounds < 16; rounds += 1) {
      const left = targetMs - (await simTimeMs(this.page));
      if (left <= 3 || (await stop())) break;
      const share = Math.min(2, Math.max(0.005, left / 2000));
      await this.setSpeed(share);
      const early = Math.max(1, share * 250);
      const toggle = await this.reach(this.playToggle(), 'the Play button');
      await this.pressAt(toggle);
      await this.page
        .waitForFunction(
          ([until]) => {
            const text = document.querySelector('[data-testid=sim-time]')?.textContent?.trim() ?? '';
            const seconds = /^(\d+)\.(\d{3}) s$/.exec(text);
            const ms = seconds ? Number(seconds[1]) * 1000 + Number(seconds[2]) : Number(/^(\d+) ms$/.exec(text)?.[1] ?? 0);
            return ms >= until || document.querySelector('[data-testid=play-toggle]')?.textContent?.includes('Play');
          },
          [targetMs - early],
          { polling: 'raf', timeout: 60_000 },
        )
        .catch(() => {});
      await this.pressAt(toggle);
      await this.setPlaying(false);
    }
    return simTimeMs(this.page);
  }

  /** A press at a point found by `reach` a moment ago. */
  async pressAt(point) {
    if (this.touch) await this.page.touchscreen.tap(point.x, point.y);
    else await this.page.mouse.click(point.x, point.y);
  }
}
