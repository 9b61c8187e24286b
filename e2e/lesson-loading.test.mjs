// The lesson text is not in the wasm: the page fetches lessons/*.md from its own origin the first time a
// lesson is needed, checks each file against the checksum the build recorded, and says so plainly when a
// file is missing or from another version, changing nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp, REPO_ROOT } from './support/browser.mjs';
import { assertNoProblems } from './support/cluster.mjs';

const LESSON = 'lessons/04-leases.md';

/** A sentence from the body of lesson 4, which must reach the page only by fetching the file. */
async function bodySentence() {
  const text = await readFile(join(REPO_ROOT, LESSON), 'utf8');
  const body = text.split('+++')[2];
  const line = body.split('\n').find((candidate) => candidate.length > 60 && !candidate.startsWith('#'));
  return line.slice(0, 50);
}

test('the first load fetches no lesson; opening the list fetches the files and shows the course', async () => {
  const app = await openApp();
  const { page } = app;
  const lessonRequests = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/lessons/')) lessonRequests.push(request.url());
  });
  try {
    const sentence = await bodySentence();
    const wasmHasIt = await page.evaluate(async (needle) => {
      const wasm = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('.wasm'));
      const bytes = new Uint8Array(await (await fetch(wasm.name)).arrayBuffer());
      // Compared as bytes, so a non-ASCII character in the sentence cannot hide a match.
      const latin1 = new TextDecoder('latin1');
      return latin1.decode(bytes).includes(latin1.decode(new TextEncoder().encode(needle)));
    }, sentence);
    assert.equal(wasmHasIt, false, 'the wasm does not carry the lesson text');
    assert.equal(lessonRequests.length, 0, `nothing fetched before a lesson is wanted: ${lessonRequests}`);
    await page.click('[data-testid=lessons-button]');
    await page.waitForSelector('[data-testid=lesson-item][data-lesson-id=leases]');
    assert.ok(lessonRequests.length >= 10, `every lesson file is fetched: ${lessonRequests.length}`);
    await page.locator('[data-testid=lesson-item][data-lesson-id=leases] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leases]');
    assert.ok((await page.textContent('[data-testid=lesson-panel]')).includes(sentence), 'the fetched text is shown');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

for (const [what, answer, reason] of [
  ['from another version', (body) => ({ status: 200, body: body + '\nOne more line.\n' }), /lessons\/04-leases\.md is not the file this version of Quorum Lab was built with/],
  ['missing', () => ({ status: 404, body: 'not found' }), /lessons\/04-leases\.md could not be loaded \(HTTP 404\)/],
]) {
  test(`a lesson file ${what} is refused with a sentence, and the playground runs on`, async () => {
    const app = await openApp({ serviceWorkers: 'block' });
    const { page } = app;
    try {
      const original = await readFile(join(REPO_ROOT, LESSON), 'utf8');
      await page.route(`**/${LESSON}`, (route) => route.fulfill({ contentType: 'text/markdown', ...answer(original) }));
      const title = await page.textContent('[data-testid=scenario-title]');
      await page.click('[data-testid=lessons-button]');
      const error = page.locator('[data-testid=lesson-list] .error');
      await error.waitFor();
      assert.match(await error.textContent(), reason);
      assert.equal(await page.locator('[data-testid=lesson-item]').count(), 0, 'no half course is listed');
      await page.keyboard.press('Escape');
      assert.equal(await page.textContent('[data-testid=scenario-title]'), title, 'the run is untouched');
      // A failed status is reported by the browser's console as a failed resource; nothing else may be.
      app.problems.splice(0, app.problems.length, ...app.problems.filter((problem) => !/404/.test(problem)));
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('a lesson address opened cold waits for the course, then opens the lesson at its step', async () => {
  const app = await openApp({ path: '/#/lesson/leader-election/step/2' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    await page.waitForSelector('[data-testid=lesson-step-2][data-state=open]');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
