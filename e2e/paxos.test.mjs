// The Paxos world in the app: it is listed by the picker, its acceptors and learners say what they
// promised, accepted and learned, and a share link reopens it (lesson 11 by "show me": show-me-course-*).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

test('Paxos from the picker: acceptors and learners show their state; the forgetful run trips Agreement', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    const values = await page.$$eval('[data-testid=protocol-picker] option', (options) => options.map((option) => option.value));
    assert.ok(values.includes('paxos-duel.toml') && values.includes('paxos-forgetful-acceptor.toml'), `picker: ${values}`);
    await page.selectOption('[data-testid=protocol-picker]', 'paxos-proposer-crash.toml');
    await setSpeedPosition(page);
    const panel = page.locator('[data-testid=paxos-panel]');
    await waitUntil(async () => /knows “apple” is chosen: n1, n2, n3 accepted it/.test(await panel.textContent()), {
      timeout: 20_000,
      what: 'B to learn apple from n1, n2, n3',
    });
    assert.match(await panel.textContent(), /accepted “apple” in 1\.B \(on disk\)/);
    assert.match(await page.textContent('[data-testid=cluster-view]'), /acceptor · promised 1\.B/);
    await app.screenshot('paxos-proposer-crash-1440');
    await page.selectOption('[data-testid=protocol-picker]', 'paxos-forgetful-acceptor.toml');
    await setSpeedPosition(page);
    await waitUntil(async () => (await violatedInvariants(page)).includes('Agreement'), {
      timeout: 20_000,
      what: 'Agreement to be violated',
    });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a Paxos share link reopens the same run', async () => {
  const sharer = await openApp({ width: 1920, height: 1080 });
  let fragment;
  let hash;
  let time;
  try {
    const { page } = sharer;
    await page.selectOption('[data-testid=protocol-picker]', 'paxos-duel.toml');
    await setSpeedPosition(page);
    await waitUntil(async () => (await simTimeMs(page)) > 600, { timeout: 20_000, what: 'the duel to end' });
    await page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], {
      what: 'the link in the address bar',
    });
    hash = await traceHash(page);
    time = await simTimeMs(page);
    await sharer.screenshot('paxos-duel-1920');
    assertNoProblems(sharer);
  } finally {
    await sharer.close();
  }
  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === hash, { timeout: 20_000, what: `trace hash ${hash}` });
    assert.equal(await simTimeMs(page), time);
    assert.match(await page.textContent('[data-testid=scenario-title]'), /duelling proposers/);
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});
