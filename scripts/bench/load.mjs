// First-load transfer size: every file a page fetches before its cluster is drawn (collected with
// Playwright), read back from disk and compressed with gzip -9, the size a server sending gzip would
// transfer; and, apart, what it fetches after that until the network is idle, with the split app's
// parts (Quorum Lab's panels, src/lazy_part.rs) whenever they were asked for. Used by scripts/bench/run.mjs (`./x bench`) for Quorum Lab's dist/
// and for RaftScope.
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage } from './frames.mjs';

/** The files served from `root` at `url` that a fresh page fetches before `readySelector` shows (and,
 * as `after`, those it fetches from then until the network is idle), with their sizes. */
export async function firstLoad(url, root, readySelector) {
  const opened = await openPage('about:blank', 'body');
  const before = new Set();
  const after = new Set();
  let ready = false;
  opened.page.on('request', (request) => {
    if (request.url().startsWith(url)) (ready ? after : before).add(new URL(request.url()).pathname);
  });
  try {
    // From the first byte of the page, so a request made after the cluster is drawn is never counted
    // as before it (a request made in the same instant may still be: the first load is then overstated).
    await opened.page.goto(url, { waitUntil: 'commit' });
    await opened.page.waitForSelector(readySelector);
    ready = true;
    await opened.page.waitForLoadState('networkidle');
  } finally {
    await opened.close();
  }
  // A part of the split app (split_*.wasm and the chunks they share) is fetched by the first module
  // once it runs, often in the very instant it draws the cluster, so the order of requests cannot tell
  // it apart: by its name it is never needed to draw (e2e/lazy-parts draws the cluster without it).
  const part = (path) => /\/(?:split_|chunk_)[\w-]+\.wasm$/.test(path);
  const first = [...before].filter((path) => !part(path));
  const rest = [...new Set([...before, ...after])].filter((path) => part(path) || !before.has(path));
  const loaded = await sizes(root, first.sort());
  const later = await sizes(root, rest.sort());
  return { ...loaded, after: later };
}

async function sizes(root, paths) {
  const files = [];
  for (const path of paths) {
    const file = join(root, path === '/' ? 'index.html' : decodeURIComponent(path));
    const body = await readFile(file).catch(() => null);
    if (body) files.push({ path, raw_bytes: body.length, gzip_bytes: gzipSync(body, { level: 9 }).length });
  }
  const total = (key) => files.reduce((sum, file) => sum + file[key], 0);
  return { files, raw_bytes: total('raw_bytes'), gzip_bytes: total('gzip_bytes') };
}
