// Words, numbers and pictures agree (issue 30): where the page names a node or states a fact, every
// place says it alike. In Paxos the link menu names proposer A as the ring does (not by its id, n6),
// and the charts card says there is no leader to chart instead of drawing one; in PBFT with one liar
// among three replicas the warning says "1 faulty replica" and the client note speaks of one client.
// Everything is done through visible controls at 1440x900. Screenshots go to e2e/screenshots/words-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, waitUntil } from './support/cluster.mjs';

const MENU = '[data-testid=link-menu]';

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

test('Paxos: the link menu and the link name proposer A as the ring does; no leader chart', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'paxos-duel.toml');
    await pause(page);
    // Five acceptors n1..n5, then the proposers: A is the sixth node, and the ring calls it A.
    assert.equal(await page.textContent('[data-testid=node-n6] text.node-id'), 'A');
    const link = page.locator('[data-testid=link-n4-n6]');
    assert.equal(await link.getAttribute('aria-label'), 'Link n4 to A: up. Click for its menu');
    await link.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator(MENU);
    await menu.waitFor();
    assert.equal(await menu.getAttribute('aria-label'), 'Link between n4 and A');
    assert.equal(await menu.locator('strong').first().textContent(), 'Link n4 — A');
    const buttons = await menu.locator('button').allTextContents();
    assert.ok(buttons.includes('Cut n4 → A') && buttons.includes('Cut A → n4'), `the cut buttons: ${buttons}`);
    assert.doesNotMatch((await menu.textContent()) ?? '', /n6/, 'the id behind A is named nowhere in the menu');
    await app.screenshot('words-paxos-link-menu-1440');
    await menu.locator('button', { hasText: 'Cut n4 → A' }).click();
    await waitUntil(async () => (await link.getAttribute('aria-label')) === 'Link n4 to A is cut one way', {
      what: 'the cut link to say which way, by name',
    });

    // Paxos elects no leader: the charts card says so rather than chart a leader that never exists.
    const charts = page.locator('[data-testid=charts]');
    await charts.scrollIntoViewIfNeeded();
    assert.equal(await page.isVisible('[data-testid=chart-leader]'), false, 'no leader chart in Paxos');
    assert.match((await page.textContent('[data-testid=chart-no-leader]')) ?? '', /no acceptor is elected to lead, and there are no terms/);
    assert.ok(await page.isVisible('[data-testid=chart-outcomes]'), 'the requests chart stays');
    await app.screenshot('words-paxos-charts-1440');

    // A Raft world has its leader chart back, and no such sentence.
    await page.selectOption('[data-testid=protocol-picker]', 'raft');
    await charts.scrollIntoViewIfNeeded();
    assert.ok(await page.isVisible('[data-testid=chart-leader]'), 'Raft charts its leader');
    assert.equal(await page.isVisible('[data-testid=chart-no-leader]'), false);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('PBFT on three replicas: one liar is "1 faulty replica", and the one client is spoken of as one', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'pbft-misconfigured-three.toml');
    const note = (await page.textContent('[data-testid=client-load-note]')) ?? '';
    assert.match(note, /each client \(A\) sends one request at a time to every replica/);
    assert.doesNotMatch(note, /clients A/);
    // The example makes n1 equivocate at 1 s: one fault, and n = 3 tolerates none.
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    const warning = page.locator('[data-testid=pbft-beyond-tolerance]');
    await warning.waitFor({ timeout: 30_000 });
    const words = (await warning.textContent()) ?? '';
    assert.match(words, /1 faulty replica \(n1 lies\) but n = 3 tolerates f = 0/);
    assert.doesNotMatch(words, /1 faulty replicas/);
    await warning.scrollIntoViewIfNeeded();
    await app.screenshot('words-pbft-one-faulty-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
