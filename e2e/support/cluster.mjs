// A page object for the cluster view and its panels: every read goes through the same data-testid
// selectors and accessible labels a learner's screen reader would use, so the tests exercise the UI
// rather than the engine behind it.
import assert from 'node:assert/strict';

/** The slider position of the top speed (20×); the slider is logarithmic over 0..=1000. */
export const TOP_SPEED_POSITION = '1000';

/**
 * Polls `probe` (an async function) until it returns a truthy value, then returns that value. On a
 * timeout, `detail` (an optional async function) adds what the page says about why.
 */
export async function waitUntil(probe, { timeout = 10_000, interval = 50, what = 'condition', detail } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) {
      const why = detail ? `; the page says: ${JSON.stringify(await detail().catch((error) => String(error)))}` : '';
      throw new Error(`timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last)}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Every node as the cluster view draws it: id, role and status from the classes, term from the
 * accessible label, which starts with the words drawn on the node ("n3 leader · term 2, 4 inputs waiting,
 * paused").
 */
export async function readNodes(page) {
  return page.$$eval('[data-testid=cluster-view] g[data-testid^="node-n"]', (elements) =>
    elements.map((element) => {
      const classes = element.getAttribute('class') ?? '';
      const label = element.getAttribute('aria-label') ?? '';
      return {
        id: element.getAttribute('data-testid').slice('node-'.length),
        role: /\brole-([a-z-]+)/.exec(classes)?.[1] ?? null,
        status: /\bstatus-([a-z]+)/.exec(classes)?.[1] ?? null,
        selected: /\bselected\b/.test(classes),
        term: Number(/\bterm (\d+)/.exec(label)?.[1] ?? Number.NaN),
        label,
      };
    }),
  );
}

export async function readNode(page, id) {
  const node = (await readNodes(page)).find((candidate) => candidate.id === id);
  assert.ok(node, `node ${id} is drawn`);
  return node;
}

/** The up node that believes it leads with the highest term, or null. */
export function currentLeader(nodes) {
  return (
    nodes
      .filter((node) => node.role === 'leader' && node.status === 'up')
      .sort((a, b) => b.term - a.term)[0] ?? null
  );
}

/** Waits for an up leader whose term is above `aboveTerm`, optionally among `among` node ids only. */
export async function waitForLeader(page, { aboveTerm = 0, among = null, timeout = 10_000 } = {}) {
  return waitUntil(
    async () => {
      const nodes = (await readNodes(page)).filter((node) => !among || among.includes(node.id));
      const leader = currentLeader(nodes);
      return leader && leader.term > aboveTerm ? leader : null;
    },
    { timeout, what: `an up leader above term ${aboveTerm}${among ? ` among ${among.join(',')}` : ''}` },
  );
}

/** Simulated time as the playback bar shows it ("850 ms", "1.234 s"), in ms. */
export async function simTimeMs(page) {
  const text = (await page.textContent('[data-testid=sim-time]')).trim();
  const seconds = /^(\d+)\.(\d{3}) s$/.exec(text);
  if (seconds) return Number(seconds[1]) * 1000 + Number(seconds[2]);
  const ms = /^(\d+) ms$/.exec(text);
  assert.ok(ms, `sim-time reads as a time: ${JSON.stringify(text)}`);
  return Number(ms[1]);
}

export async function isPlaying(page) {
  return (await page.textContent('[data-testid=play-toggle]')).includes('Pause');
}

/** Sets the speed slider, then hands focus back to the page so keyboard shortcuts reach the app. */
export async function setSpeedPosition(page, position = TOP_SPEED_POSITION) {
  await page.locator('input[aria-label="Playback speed"]').fill(position);
  await page.evaluate(() => document.activeElement?.blur());
}

/** `len 7 · commit 5` from a node's log strip. */
export async function readLog(page, id) {
  const text = await page.textContent(`[data-testid=log-${id}] .strip-meta`);
  const match = /commit (\d+)\/(\d+)/.exec(text ?? '');
  assert.ok(match, `log strip of ${id} shows length and commit index: ${JSON.stringify(text)}`);
  return { commit: Number(match[1]), len: Number(match[2]) };
}

/** Client request rows, newest first: { what, outcome, kind } with kind pending|committed|failed|unknown. */
export async function readRequests(page) {
  return page.$$eval('[data-testid=request-list] li', (rows) =>
    rows.map((row) => ({
      what: row.querySelector('.request-what')?.textContent ?? '',
      outcome: row.querySelector('.request-outcome')?.textContent ?? '',
      kind: /outcome-(\w+)/.exec(row.getAttribute('class') ?? '')?.[1] ?? null,
    })),
  );
}

/** Sends one write through the client panel to `target` ("leader" or "n3"). */
export async function sendWrite(page, target) {
  await page.selectOption('[data-testid=client-panel] select[aria-label="Request target"]', target);
  await page.click('[data-testid=send-write]');
}

/**
 * Puts each node's partition chip into the wanted group by clicking it round A → B → C.
 * `groups` maps a group letter to node ids, e.g. { A: ['n1', 'n2'], B: ['n3', 'n4', 'n5'] }.
 */
export async function chooseGroups(page, groups) {
  for (const [letter, ids] of Object.entries(groups)) {
    for (const id of ids) {
      const chip = page.locator('[data-testid=partition-panel] .chips button', { hasText: new RegExp(`^${id} · `) });
      for (let clicks = 0; (await chip.textContent()).trim() !== `${id} · ${letter}`; clicks += 1) {
        assert.ok(clicks < 3, `chip ${id} reaches group ${letter}`);
        await chip.click();
      }
    }
  }
}

export async function violatedInvariants(page) {
  return page.$$eval('[data-testid=checker-badges] li.badge.violated', (badges) =>
    badges.map((badge) => badge.getAttribute('data-invariant')),
  );
}

/** Fails the test on any console error, uncaught exception (panic) or off-box request. */
export function assertNoProblems(app) {
  assert.deepEqual(app.problems, [], 'no console errors, panics or network requests outside the app');
}
