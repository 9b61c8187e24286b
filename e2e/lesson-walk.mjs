// Every step of every lesson done by hand at one window size (issue 30's "must hold"): the walker opens
// each lesson from the lesson list, answers each step's predictions by pressing an option, and makes
// the step's solution moves (the list "show me" would use, read from lessons/*.md) through the visible
// controls only — the node's menu, the link's menu, the partition chips, the client panel, Heal all,
// Add a server — never "show me". Each move waits, paused, for its moment: the run is played to the
// step's start plus the move's `after_ms` with the visible play/pause button and speed slider and
// paused there, so moves are made on a still picture as a learner would. Then the run plays at the
// fastest visible speed until the step ticks (on the page's own step state, with deadlines that hold
// on a loaded machine), and a step with a world of its own is opened with its "Open step N's world".
//
// A step that cannot be done by hand fails its own subtest with what blocked it and a screenshot
// (e2e/screenshots/lesson-walk-<size>-<lesson>-step<N>.png); the lesson is then reopened at the next
// step from its address, so the remaining steps are still walked. A known app bug is listed in
// KNOWN_BUGS (lesson/step → the bug) and marks that step's subtest todo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { readRequests, simTimeMs, waitUntil } from './support/cluster.mjs';
import { Hand } from './support/hand.mjs';
import { Moves, ringNodes } from './support/lesson-moves.mjs';
import { readCourse } from './support/lesson-script.mjs';
import { step, stepState } from './support/lesson-steps.mjs';

/**
 * Fixed names in a solution that stand for a node the step describes by its role, as `lesson/step` →
 * { name: what it stands for }: the name the step's live {lock_holder} chip shows ('holder'), or the
 * node an earlier move of the step was made on (that move's kind). "Show me" acts at fixed moments on a
 * fixed run, where the role and the name coincide; by hand the run differs by a few ms and the learner
 * follows the words: lesson 4 steps 4 and 9 read from "the old, isolated leader", lesson 9 crashes and pauses
 * "the current leader", lesson 10's scheduler steps crash or pause "the instance that leads".
 * Elsewhere a solution's worker that must be frozen or crashed while it holds the lock is waited for
 * (`waitForHolder`).
 */
const ROLE_NAMES = {
  'exactly-once/1': { B: 'holder' },
  'leases/4': { n2: 'isolate' },
  'leases/9': { n4: 'isolate' },
  'zookeeper-election/2': { B: 'holder' },
  'zookeeper-election/3': { D: 'holder' },
  'guided-lab/6': { B: 'holder' },
  'guided-lab/7': { A: 'holder' },
  'leader-election/3': { n1: 'follower' },
  'distributed-locks/3': { n1: 'new-holder' },
};

/**
 * Moves the step times by the node's own clock, as `lesson/step` → node: lesson 1 step 2 pauses A "when
 * the clock in the inspector reads between x.0 and x.6 s", while a run is under way.
 */
const BUSY_WINDOWS = { 'exactly-once/2': 'A' };

/** Steps a learner cannot finish by hand at a size, as `size/lesson-id/step` → the bug, found by this walk. */
export const KNOWN_BUGS = {};

const TICK_TIMEOUT_MS = 90_000;
// Simulated time a step may take beyond its own allowance before the walk calls it stuck.
const SLACK_MS = 5_000;
const OPEN_TIMEOUT_MS = 30_000;

class LessonWalk {
  constructor(app, viewport, lesson) {
    this.app = app;
    this.page = app.page;
    this.viewport = viewport;
    this.lesson = lesson;
    this.hand = new Hand(app.page, viewport);
    this.moves = new Moves(this.hand);
    this.stepStartMs = null;
    // Whether the open step's world is on screen already (opened from the list or an address).
    this.worldOpen = true;
    this.notes = [];
  }

  /** Opens the lesson from the header's Lessons button and the lesson's entry in the list. */
  async openFromList() {
    await this.hand.press(this.page.locator('[data-testid=lessons-button]'), 'the Lessons button');
    const entry = this.page.locator(`[data-testid=lesson-item][data-lesson-id="${this.lesson.id}"]`);
    await this.hand.press(entry.locator('[data-testid=open-lesson]'), `the lesson "${this.lesson.id}" in the list`);
    await this.page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${this.lesson.id}"]`, { timeout: OPEN_TIMEOUT_MS });
    await this.waitOpen(1);
    this.stepStartMs = await simTimeMs(this.page);
  }

  /** Reopens the lesson at `number` from its address, after a step that could not be done by hand. */
  async reopenAt(number) {
    // A fresh load (not a hash change, which the page may already show) opens it from the address.
    await this.page.goto('about:blank');
    await this.page.goto(`${this.app.url}/#/lesson/${this.lesson.id}/step/${number}`);
    await this.page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${this.lesson.id}"]`, { timeout: OPEN_TIMEOUT_MS });
    await this.waitOpen(number);
    await waitUntil(async () => (await this.page.locator('[data-testid=lesson-waiting]').count()) > 0, { timeout: OPEN_TIMEOUT_MS, what: 'the reopened step to wait for the learner' });
    this.stepStartMs = await simTimeMs(this.page);
    this.worldOpen = true;
  }

  async waitOpen(number) {
    await waitUntil(async () => (await stepState(this.page, number)) === 'open', { timeout: OPEN_TIMEOUT_MS, what: `step ${number} to open` });
  }

  /** Presses an option of each of the step's questions (the first), reaching them as a learner does. */
  async predict(number, count) {
    for (let question = 0; question < count; question += 1) {
      const asked = step(this.page, number).locator('[data-testid=predict]').nth(question);
      const goTo = this.page.locator('[data-testid=current-step] [data-testid=go-to-predict]');
      if (!(await asked.isVisible()) && (await goTo.count()) > 0) await this.hand.press(goTo, `"answer step ${number}'s question"`);
      await this.hand.press(asked.locator('[data-testid=predict-option]').first(), `step ${number}'s prediction option`);
      const feedback = (await asked.locator('[data-testid=predict-feedback]').textContent()) ?? '';
      assert.match(feedback, /Locked in|Right|Not quite|✓|✗/, `step ${number}'s pick is locked in: ${feedback}`);
    }
  }

  /** A step with a world of its own: its "Open step N's world" button, wherever it is shown first. */
  async openOwnWorld(number) {
    const inCard = this.page.locator('[data-testid=current-step] [data-testid=open-step-world]');
    const button = (await inCard.count()) > 0 ? inCard : step(this.page, number).locator('[data-testid=open-step-world]');
    await this.hand.press(button, `"Open step ${number}'s world"`);
    await button.first().waitFor({ state: 'detached', timeout: OPEN_TIMEOUT_MS });
    await this.waitOpen(number);
    this.stepStartMs = await simTimeMs(this.page);
  }

  /**
   * A step that says to freeze or crash the worker holding the lock names the holder live ("now: B"):
   * the solution's worker is the holder at the moment "show me" acts, so by hand the move waits, as a
   * learner reading the name does, until that worker holds it, playing on in short stretches.
   */
  async waitForHolder(number, action) {
    const holder = this.page.locator('[data-testid=current-step] [data-testid=live-name][data-live=lock_holder]');
    const worker = action.target && action.target !== 'leader' && action.target !== 'store' && !/^n\d+$/.test(action.target);
    if (!worker || !['pause', 'crash'].includes(action.do) || (await holder.count()) === 0) return;
    const giveUpAt = (await simTimeMs(this.page)) + 5_000;
    while (((await holder.first().textContent()) ?? '').trim() !== action.target) {
      const now = await simTimeMs(this.page);
      if (now > giveUpAt || (await stepState(this.page, number)) === 'done') {
        throw new Error(`step ${number}: ${action.target} never held the lock in 5 s to ${action.do} it (the step names ${await holder.first().textContent()})`);
      }
      await this.hand.playTo(now + 20);
    }
    if (action.after_ms > 0) this.notes.push(`step ${number}: waited for ${action.target} to hold the lock`);
  }

  /**
   * "Send a write, and then send reads": a read that follows a write in the step is sent once the
   * client panel shows that write committed, as a learner reading the panel does.
   */
  async waitForWriteCommitted(number, earlier) {
    if (!earlier.some((action) => action.do === 'request' && action.kind !== 'get')) return;
    const giveUpAt = (await simTimeMs(this.page)) + 5_000;
    for (;;) {
      const rows = await readRequests(this.page);
      if (rows.some((row) => /^#\d+ put /.test(row.what) && row.kind === 'committed')) return;
      const now = await simTimeMs(this.page);
      if (now > giveUpAt) throw new Error(`step ${number}: the write was not committed within 5 s, so the reads meant to follow it were not sent`);
      await this.hand.playTo(now + 25);
    }
  }

  /** Selects `name` and plays in short stretches until the Inspector's clock for it reads x.05–x.55 s. */
  async waitForBusyClock(number, name) {
    await this.moves.openMenu(name);
    const giveUpAt = (await simTimeMs(this.page)) + 3_000;
    for (;;) {
      const text = (await this.page.locator('[data-testid=inspector]').textContent()) ?? '';
      const clock = Number(/clock\s*([\d.]+) s/.exec(text)?.[1] ?? Number.NaN);
      const fraction = clock - Math.floor(clock);
      if (fraction >= 0.05 && fraction <= 0.55) break;
      const now = await simTimeMs(this.page);
      if (Number.isNaN(clock) || now > giveUpAt) throw new Error(`step ${number}: the Inspector never showed ${name}'s clock in a run (last: ${text.slice(0, 200)})`);
      await this.hand.playTo(now + 50);
    }
    await this.moves.closeMenu();
  }

  /**
   * "n1, or n2 if n1 is the one leading now": the solution's node unless the playback bar's leader chip
   * names it, else the next node on the ring that is up and not leading.
   */
  async followerNamed(name) {
    const chip = ((await this.page.textContent('[data-testid=leader-chip]')) ?? '').trim();
    const leader = /^leader: (\S+)/.exec(chip)?.[1];
    if (leader !== name) return name;
    const other = (await ringNodes(this.page)).find((node) => node.name !== name && node.name !== leader && node.status === 'up');
    this.notes.push(`${name} was leading, so the step's follower was ${other?.name}`);
    return other?.name ?? name;
  }

  /**
   * "Wait for a worker to take the lock (the name here changes), pause, then act": plays in short
   * stretches until the step's {lock_holder} chip names a different worker than it did, and stops there.
   */
  async waitForNewHolder(number) {
    const before = await this.holderName();
    const giveUpAt = (await simTimeMs(this.page)) + 5_000;
    for (;;) {
      const now = await simTimeMs(this.page);
      const name = await this.holderName();
      if (name && name !== before) return;
      if (now > giveUpAt) throw new Error(`step ${number}: the lock changed hands not once in 5 s (holder: ${before})`);
      await this.hand.playTo(now + 20);
    }
  }

  /** The name the open step's {lock_holder} chip shows now, or null when it names nobody. */
  async holderName() {
    const chip = this.page.locator('[data-testid=current-step] [data-testid=live-name][data-live=lock_holder]');
    const name = (await chip.count()) > 0 ? ((await chip.first().textContent()) ?? '').trim() : '';
    return /^[A-Za-z]\w*$/.test(name) && !/^(nobody|none)$/.test(name) ? name : null;
  }

  /** Waits, playing in short stretches, until the chip names someone (a learner waits for "now: C"). */
  async waitForNamedHolder(number, fallback) {
    const giveUpAt = (await simTimeMs(this.page)) + 5_000;
    for (;;) {
      const name = await this.holderName();
      if (name) return name;
      const now = await simTimeMs(this.page);
      if (now > giveUpAt) {
        this.notes.push(`step ${number}: the step named no holder for 5 s; acted on ${fallback}`);
        return fallback;
      }
      await this.hand.playTo(now + 25);
    }
  }

  /** Makes the step's solution moves at their moments, each on a paused run. */
  async makeMoves(number, solution) {
    await this.hand.setPlaying(false);
    for (let [index, action] of solution.entries()) {
      const due = this.stepStartMs + action.after_ms;
      if ((await simTimeMs(this.page)) < due - 4) {
        await this.hand.playTo(due, async () => (await stepState(this.page, number)) === 'done');
      }
      if ((await stepState(this.page, number)) === 'done') {
        this.notes.push(`step ${number} ticked before its move ${index + 1} (${action.do})`);
        return;
      }
      const role = ROLE_NAMES[`${this.lesson.id}/${number}`]?.[action.target];
      if (role === 'holder') action = { ...action, target: await this.waitForNamedHolder(number, action.target) };
      else if (role === 'follower') action = { ...action, target: await this.followerNamed(action.target) };
      else if (role === 'new-holder') await this.waitForNewHolder(number);
      else if (role) action = { ...action, target: this.moves.resolved[role] ?? action.target };
      else await this.waitForHolder(number, action);
      const busy = BUSY_WINDOWS[`${this.lesson.id}/${number}`];
      if (busy !== undefined && busy === action.target) await this.waitForBusyClock(number, action.target);
      if (action.do === 'request' && action.kind === 'get') await this.waitForWriteCommitted(number, solution.slice(0, index));
      const late = (await simTimeMs(this.page)) - due;
      const note = await this.moves.make(action);
      if (note) this.notes.push(`step ${number}: ${note}`);
      if (late > 50) this.notes.push(`step ${number}: ${action.do} made ${late} ms after its moment`);
      // A lesson waiting for the learner's first move starts playing after it; later moves are made paused.
      if (index + 1 < solution.length) await this.hand.setPlaying(false);
    }
  }

  /**
   * Plays at the fastest visible speed until the step ticks; returns the clock when it was seen. The
   * step fails once the simulation is well past its time (its last move plus `within_ms`, and
   * SLACK_MS more for a move made by hand a little late), or on a wall-clock cap for a stalled page.
   * With `pauseAfter` (the next step goes on in this run), the run is paused the moment the tick shows,
   * as a learner stops to read the next step.
   */
  async playUntilTicked(number, plan, pauseAfter) {
    const lastMoveMs = this.stepStartMs + Math.max(0, ...plan.solution.map((action) => action.after_ms));
    const deadlineMs = lastMoveMs + plan.withinMs + SLACK_MS;
    const verdict = () => this.page.locator('[data-testid=current-step] [data-testid=step-verdict]').first().textContent();
    const wallDeadline = Date.now() + TICK_TIMEOUT_MS;
    await this.hand.setSpeed(2);
    await this.hand.reach(this.hand.playToggle(), 'the Play button');
    for (;;) {
      const ticked = await this.page
        .waitForFunction((wanted) => document.querySelector(`[data-testid=lesson-step-${wanted}]`)?.getAttribute('data-state') === 'done', number, { polling: 'raf', timeout: 1_000 })
        .then(() => true, () => false);
      if (ticked) {
        // Found again, not pressed where it was: the tick can scroll the page, and on a phone the old
        // point may now lie over a node (whose menu would open and cover the play bar).
        if (pauseAfter && (await this.hand.playing())) await this.hand.setPlaying(false);
        return simTimeMs(this.page);
      }
      const now = await simTimeMs(this.page);
      if (now > deadlineMs) {
        throw new Error(`step ${number} did not tick by ${now} ms of simulated time (its moves ended at ${lastMoveMs} ms, it allows ${plan.withinMs} ms): ${await verdict()}`);
      }
      if (Date.now() > wallDeadline) throw new Error(`step ${number} did not tick within ${TICK_TIMEOUT_MS} ms of wall time: ${await verdict()}`);
      const look = this.page.locator('[data-testid=look-now-go-on]');
      if (await look.isVisible()) {
        await this.hand.press(look, 'the look-now note\'s "Go on"');
        await this.hand.setSpeed(2);
        await this.hand.reach(this.hand.playToggle(), 'the Pause button');
      } else if (!(await this.hand.playing())) {
        await this.hand.setPlaying(true);
        await this.hand.reach(this.hand.playToggle(), 'the Pause button');
      }
    }
  }

  async walkStep(index) {
    const number = index + 1;
    const plan = this.lesson.steps[index];
    // The step began at the last tick and the run goes on: pause it first, then read and predict.
    await this.hand.setPlaying(false);
    await this.predict(number, plan.predictions);
    if (plan.ownWorld && !this.worldOpen) await this.openOwnWorld(number);
    this.worldOpen = false;
    await this.waitOpen(number);
    await this.makeMoves(number, plan.solution);
    const next = this.lesson.steps[index + 1];
    this.stepStartMs = await this.playUntilTicked(number, plan, Boolean(next) && !next.ownWorld);
  }
}

// Walking all 68 steps at all four sizes takes four times as long as the rest of the e2e suite, so by
// default every lesson is walked once, each at one size in turn (lesson 1 at 1280, lesson 2 at 1440, …),
// and every size sees three or four lessons. QUORUMLAB_WALK=every-size walks every lesson at every size.
// The e2e stage of `./x test` runs the default walk; `./x test walk` runs the walk alone (scripts/stages.sh).
const SIZES_IN_TURN = ['1280x720', '1440x900', '1920x1080', 'phone-390x844'];

function lessonsFor(viewport) {
  // QUORUMLAB_WALK_ONLY=id,id walks only those lessons, each at its size in turn or at every size.
  const only = process.env.QUORUMLAB_WALK_ONLY?.split(',');
  const turn = SIZES_IN_TURN.indexOf(viewport.name);
  return readCourse().filter(
    (lesson, index) =>
      (!only || only.includes(lesson.id)) && (process.env.QUORUMLAB_WALK === 'every-size' || index % SIZES_IN_TURN.length === turn),
  );
}

/** One test per lesson at `viewport`, with one subtest per step. */
export function walkCourse(viewport) {
  for (const lesson of lessonsFor(viewport)) {
    test(`${lesson.id}: every step by hand at ${viewport.name}`, async (t) => {
      const app = await openApp(viewport);
      const walk = new LessonWalk(app, viewport, lesson);
      try {
        await walk.openFromList();
        for (const index of lesson.steps.keys()) {
          const number = index + 1;
          const bug = KNOWN_BUGS[`${viewport.name}/${lesson.id}/${number}`];
          let failed = false;
          await t.test(`step ${number} (${lesson.steps[index].checkpoint})`, bug ? { todo: bug } : {}, async () => {
            try {
              await walk.walkStep(index);
            } catch (error) {
              failed = true;
              const shot = `lesson-walk-${viewport.name}-${lesson.id}-step${number}`;
              await app.screenshot(shot).catch(() => {});
              error.message += ` [screenshot e2e/screenshots/${shot}.png]`;
              throw error;
            }
          });
          if (failed && number < lesson.steps.length) await walk.reopenAt(number + 1);
        }
        const notes = [...walk.notes, ...walk.hand.notes];
        if (notes.length) t.diagnostic(notes.join('; '));
        assert.deepEqual(app.problems, [], 'no console errors, panics or network requests outside the app');
      } finally {
        await app.close();
      }
    });
  }
}

export const VIEWPORTS = {
  '1280': { name: '1280x720', width: 1280, height: 720 },
  '1440': { name: '1440x900', width: 1440, height: 900 },
  '1920': { name: '1920x1080', width: 1920, height: 1080 },
  phone: { name: 'phone-390x844', width: 390, height: 844, page: { hasTouch: true, isMobile: true } },
};
