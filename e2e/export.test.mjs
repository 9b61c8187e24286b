// Pictures for slides: the cluster view and the space-time diagram saved as SVG and PNG from the header's
// Export menu, in the normal layout and in presenter mode. The SVG must stand alone (it parses, names the
// nodes, draws as an image with nothing fetched, carries the theme's colours inline); the PNG must be a
// real PNG at twice the drawing's size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems } from './support/cluster.mjs';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Opens the Export menu, presses `choice` and returns the download's suggested name and bytes. */
async function exportPicture(page, choice) {
  if (!(await page.isVisible('[data-testid=export-choices]'))) await page.click('[data-testid=export-button]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${choice}]`)]);
  assert.equal(await download.failure(), null, `${choice} downloaded`);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** What the page's own parser and renderer make of an SVG file's text. */
async function inspectSvg(page, text) {
  return page.evaluate(async (source) => {
    const parsed = new DOMParser().parseFromString(source, 'image/svg+xml');
    const root = parsed.documentElement;
    const references = [];
    for (const element of parsed.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        const value = attribute.value;
        const external = /url\((?!["']?#)/.test(value) || (/href$/.test(attribute.name) && !value.startsWith('#'));
        if (external) references.push(`${element.tagName} ${attribute.name}="${value.slice(0, 80)}"`);
      }
    }
    // Drawn as an image, an SVG may fetch nothing: if it needed anything outside itself it would not load.
    const image = new Image();
    const loaded = new Promise((resolve) => { image.onload = () => resolve(true); image.onerror = () => resolve(false); });
    image.src = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
    return {
      error: parsed.querySelector('parsererror')?.textContent ?? null,
      root: root.localName,
      namespace: root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      title: root.querySelector('title')?.textContent ?? '',
      background: root.querySelector(':scope > rect')?.getAttribute('fill') ?? '',
      texts: [...root.querySelectorAll('text')].map((element) => element.textContent.trim()).filter(Boolean),
      styled: root.querySelectorAll('[style*="fill:"]').length,
      elements: root.querySelectorAll('*').length,
      references,
      drawn: (await loaded) && image.naturalWidth > 0,
    };
  }, text);
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes) {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function assertPng(bytes, expected, what) {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, `${what} starts with the PNG signature`);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR', `${what} has its header first`);
  assert.deepEqual(pngSize(bytes), expected, `${what} is drawn at twice the picture's size`);
  assert.ok(bytes.length > 15_000, `${what} holds a real drawing (${bytes.length} bytes)`);
}

const NODES = ['n1', 'n2', 'n3', 'n4', 'n5'];

test('the cluster view and the space-time diagram export as standalone SVG and 2x PNG, from the header and in presenter mode', async () => {
  const app = await openApp({ page: { colorScheme: 'dark' } });
  const { page } = app;
  try {
    await page.waitForTimeout(1_500);
    await page.keyboard.press(' ');
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
