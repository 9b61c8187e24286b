// First-load transfer size: every file a page fetches before its cluster is drawn (collected with
// Playwright), read back from disk and compressed with gzip -9, the size a server sending gzip would
// transfer; and, apart, what it fetches after that until the network is idle (Quorum Lab's panels
// arrive then, src/lazy_part.rs). Used by scripts/bench/run.mjs (`./x bench`) for Quorum Lab's dist/
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
  const loaded = await sizes(root, [...before].sort());
  const later = await sizes(root, [...after].filter((path) => !before.has(path)).sort());
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
