// First-load transfer size: every file a page fetches while it opens (collected with Playwright until the
// network is idle), read back from disk and compressed with gzip -9, the size a server sending gzip would
// transfer. Used by scripts/bench/run.mjs (`./x bench`) for Quorum Lab's dist/ and for RaftScope.
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage } from './frames.mjs';

/** The files served from `root` at `url` that a fresh page fetches before it settles, with their sizes. */
export async function firstLoad(url, root, readySelector) {
  const opened = await openPage('about:blank', 'body');
  const paths = new Set();
  opened.page.on('request', (request) => {
    if (request.url().startsWith(url)) paths.add(new URL(request.url()).pathname);
  });
  try {
    await opened.page.goto(url);
    await opened.page.waitForSelector(readySelector);
    await opened.page.waitForLoadState('networkidle');
  } finally {
    await opened.close();
  }
  const files = [];
  for (const path of [...paths].sort()) {
    const file = join(root, path === '/' ? 'index.html' : decodeURIComponent(path));
    const body = await readFile(file).catch(() => null);
    if (body) files.push({ path, raw_bytes: body.length, gzip_bytes: gzipSync(body, { level: 9 }).length });
  }
  const total = (key) => files.reduce((sum, file) => sum + file[key], 0);
  return { files, raw_bytes: total('raw_bytes'), gzip_bytes: total('gzip_bytes') };
}
