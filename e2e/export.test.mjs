// Pictures for slides: the cluster view and the space-time diagram saved as SVG and PNG from the header's
// Export menu, in the normal layout and in presenter mode. The SVG must stand alone (it parses, names the
// nodes, draws as an image with nothing fetched, carries the theme's colours inline); the PNG must be a
// real PNG at twice the drawing's size. Here the drawing only ("picture only"), in the colours on screen;
// export-context.test.mjs covers the words around it and the light export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems } from './support/cluster.mjs';
import { assertPng, exportPicture, inspectSvg, setExportOptions } from './support/export.mjs';

const NODES = ['n1', 'n2', 'n3', 'n4', 'n5'];

test('the cluster view and the space-time diagram export as standalone SVG and 2x PNG, from the header and in presenter mode', async () => {
  const app = await openApp({ page: { colorScheme: 'dark' } });
  const { page } = app;
  try {
    await page.waitForTimeout(1_500);
    await page.keyboard.press(' ');
    await setExportOptions(page, { context: false, theme: 'as-on-screen' });
    const panel = await page.evaluate(() => ({
      cluster: getComputedStyle(document.querySelector('.cluster-panel')).backgroundColor,
      follower: getComputedStyle(document.querySelector('[data-testid=cluster-view] .role-follower .node-body')).fill,
    }));

    const svg = await exportPicture(page, 'export-cluster-svg');
    assert.match(svg.name, /^quorumlab-raft-playground-cluster-\d+ms\.svg$/);
    const cluster = await inspectSvg(page, svg.bytes.toString('utf8'));
    assert.equal(cluster.error, null, 'the SVG parses');
    assert.equal(cluster.root, 'svg');
    assert.equal(cluster.namespace, 'http://www.w3.org/2000/svg');
    assert.deepEqual([cluster.width, cluster.height], [1000, 800]);
    for (const node of NODES) assert.ok(cluster.texts.includes(node), `the picture names ${node}: ${cluster.texts}`);
    assert.deepEqual(cluster.references, [], 'nothing points outside the file');
    assert.ok(cluster.drawn, 'the file draws as an image on its own');
    assert.equal(cluster.background, panel.cluster, "the picture sits on the panel's colour");
    assert.ok(cluster.styled > cluster.elements / 2, `colours are inlined (${cluster.styled} of ${cluster.elements} elements)`);
    assert.ok(svg.bytes.toString('utf8').includes(`fill:${panel.follower}`), `a follower's fill ${panel.follower} is in the file`);
    assert.match(cluster.title, /Raft playground, cluster view at/);
    assert.match(await page.textContent('[data-testid=notice]'), /Saved quorumlab-raft-playground-cluster-\d+ms\.svg/);

    const png = await exportPicture(page, 'export-cluster-png');
    assert.match(png.name, /^quorumlab-raft-playground-cluster-\d+ms\.png$/);
    assertPng(png.bytes, { width: 2000, height: 1600 }, 'the cluster PNG');

    // Presenter mode hides the space-time diagram but the menu still saves it, and the cluster too.
    await page.click('[data-testid=presenter-toggle]');
    assert.equal(await page.isVisible('[data-testid=spacetime]'), false, 'presenter mode hides the diagram');
    const lanes = await exportPicture(page, 'export-space-time-svg');
    assert.match(lanes.name, /^quorumlab-raft-playground-space-time-\d+ms\.svg$/);
    const diagram = await inspectSvg(page, lanes.bytes.toString('utf8'));
    assert.equal(diagram.error, null, 'the space-time SVG parses');
    for (const node of NODES) assert.ok(diagram.texts.includes(node), `a lane for ${node}: ${diagram.texts}`);
    assert.deepEqual(diagram.references, [], 'only the clip inside the file is referenced');
    assert.ok(diagram.drawn, 'the diagram draws as an image on its own');
    const lanesPng = await exportPicture(page, 'export-space-time-png');
    assertPng(lanesPng.bytes, { width: diagram.width * 2, height: diagram.height * 2 }, 'the space-time PNG');
    const presenterPng = await exportPicture(page, 'export-cluster-png');
    assertPng(presenterPng.bytes, { width: 2000, height: 1600 }, 'the cluster PNG in presenter mode');

    // The light theme's picture is light: the colours are those of the theme in effect.
    await page.click('[data-theme-choice=light]');
    await page.waitForTimeout(300);
    const light = await inspectSvg(page, (await exportPicture(page, 'export-cluster-svg')).bytes.toString('utf8'));
    const [red, green, blue] = light.background.match(/\d+/g).map(Number);
    assert.ok(Math.min(red, green, blue) > 200, `a light background, saw ${light.background}`);
    assert.notEqual(light.background, cluster.background);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the Export menu opens and closes by keyboard, and Escape gives focus back to its button', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.focus('[data-testid=export-button]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=export-choices]');
    assert.equal(await page.getAttribute('[data-testid=export-button]', 'aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'export-cluster-svg');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('[data-testid=export-choices]'), false);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'export-button');
    await page.click('[data-testid=export-button]');
    // The open menu may cover the drawing's top-left corner (the header wraps at 1440 px): press its
    // bottom-right corner instead.
    const box = await page.locator('[data-testid=cluster-view]').boundingBox();
    await page.click('[data-testid=cluster-view]', { position: { x: box.width - 10, y: box.height - 10 } });
    assert.equal(await page.isVisible('[data-testid=export-choices]'), false, 'a press outside closes it');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
