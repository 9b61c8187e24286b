// A tiny static file server on loopback only, on a free port: for the release build in dist/ (tests), and
// for any other folder of static files (the benchmark serves RaftScope and its wasm page with it).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.md': 'text/markdown; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

async function resolveFile(root, urlPath) {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0])).replace(/^(\.\.[/\\])+/, '');
  const candidate = join(root, clean);
  if (!candidate.startsWith(root)) return join(root, 'index.html');
  try {
    const info = await stat(candidate);
    return info.isFile() ? candidate : join(root, 'index.html');
  } catch {
    return join(root, 'index.html');
  }
}

/**
 * Serves the files under `root` (an absolute path); unknown paths get its index.html. With `prefix`
 * (such as '/courses/ql/') the files are served only under that path, as a static host serves a sub-folder:
 * anything outside it is a 404, so a page that reaches for the origin's root breaks as it would there.
 */
export async function serveDist(root, { prefix = '/', gzip = false } = {}) {
  // With `gzip`, text and wasm go out compressed (level 6, as a typical host does), each file once.
  const compressed = new Map();
  const server = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (!url.startsWith(prefix)) {
      response.writeHead(404);
      response.end('not found (outside the folder the app is served from)');
      return;
    }
    const file = await resolveFile(root, '/' + url.slice(prefix.length));
    try {
      const body = await readFile(file);
      const headers = { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
      const accepts = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
      if (gzip && accepts && !/^image\/png|^font\//.test(headers['content-type'])) {
        if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: 6 }));
        headers['content-encoding'] = 'gzip';
        response.writeHead(200, headers);
        response.end(compressed.get(file));
        return;
      }
      response.writeHead(200, headers);
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
