// Saving pictures from the header's Export menu, and reading them back, for the export tests.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Opens the Export menu if closed and sets its two options through their visible controls. */
export async function setExportOptions(page, { context, theme }) {
  if (!(await page.isVisible('[data-testid=export-choices]'))) await page.click('[data-testid=export-button]');
  if (context !== undefined) await page.setChecked('[data-testid=export-context]', context);
  if (theme !== undefined) await page.selectOption('[data-testid=export-theme]', theme);
}

/** Opens the Export menu, presses `choice` and returns the download's suggested name and bytes. */
export async function exportPicture(page, choice) {
  if (!(await page.isVisible('[data-testid=export-choices]'))) await page.click('[data-testid=export-button]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${choice}]`)]);
  assert.equal(await download.failure(), null, `${choice} downloaded`);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** What the page's own parser and renderer make of an SVG file's text. */
export async function inspectSvg(page, text) {
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
      // The words around the drawing, by what they are (src/export/draw_frame.rs marks them).
      framed: Object.fromEntries(
        ['title', 'time', 'caption', 'heading', 'legend'].map((role) => [
          role,
          [...root.querySelectorAll(`:scope > text[data-role=${role}]`)].map((element) => element.textContent),
        ]),
      ),
      invariants: [...root.querySelectorAll(':scope > text[data-role=invariant]')].map((element) => ({
        name: element.getAttribute('data-invariant'),
        state: element.getAttribute('data-state'),
        text: element.textContent,
        fill: element.style.fill,
      })),
      // The fills the drawing's node bodies were exported with.
      nodeFills: [...root.querySelectorAll('.node-body')].map((element) => element.style.fill),
    };
  }, text);
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes) {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function assertPng(bytes, expected, what) {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, `${what} starts with the PNG signature`);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR', `${what} has its header first`);
  assert.deepEqual(pngSize(bytes), expected, `${what} is drawn at twice the picture's size`);
  assert.ok(bytes.length > 15_000, `${what} holds a real drawing (${bytes.length} bytes)`);
}

