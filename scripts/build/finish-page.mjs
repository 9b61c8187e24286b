// Trunk's post_build hook (Trunk.toml): the app split into a first module and parts loaded on first use
// (split-app.mjs), then the last two touches to the built index.html, in this order.
//
// 1. The wasm's real size. The loading state (public/boot-progress.js) counts the wasm's bytes against the
//    size Trunk writes into its start-up script, but Trunk measures the file before wasm-opt shrinks it.
//    The size of the file actually in the build replaces it, so the bar ends full rather than at 70%.
//
// 2. A strict Content-Security-Policy. The page parses untrusted text (share links, imported files, kept
//    gallery imports), so it forbids everything it never needs: scripts run only from the app's own files
//    or as the exact inline scripts this build wrote (each named by its SHA-256, so a script injected
//    later matches none), the wasm module may be compiled ('wasm-unsafe-eval'), and nothing is fetched
//    from, sent to or framed from another origin. Styles keep 'unsafe-inline' because Leptos sets style
//    attributes from Rust; a style cannot run code. The policy is a <meta> tag so it holds on any static
//    host with no configuration; a host may repeat it as a header (README, Deploy) and add
//    frame-ancestors, which a <meta> tag cannot carry. Only release builds get it: a debug build under
//    `trunk serve` injects an auto-reload script whose text Trunk rewrites per request, so no hash could
//    name it (`./x dev`).
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { splitApp } from './split-app.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('finish-page.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is not set)');
  process.exit(2);
}
const file = join(staging, 'index.html');

function fail(why) {
  console.error(`finish-page.mjs: ${file}: ${why}`);
  process.exit(1);
}

/** Step 1: the start-up script's wasm size becomes the size of the wasm in the build. The page's own
 *  wasm is the one its start-up call names; the experiments' worker wasm sits beside it unnamed. */
async function withRealWasmSize(page) {
  // Trunk writes: __trunkInitializer(init, './<name>_bg.wasm', <size>, initializer(), ...)
  const call = /(__trunkInitializer\(init, '(?:\.\/)?([^']*_bg\.wasm)', )(\d+)(,)/;
  const named = page.match(call);
  if (!named) fail('no start-up call naming the wasm and its size');
  const wasmName = named[2];
  if (!(await readdir(staging)).includes(wasmName)) fail(`the start-up call names ${wasmName}, which the build does not hold`);
  const bytes = (await stat(join(staging, wasmName))).size;
  return page.replace(call, (_, before, _name, _size, after) => `${before}${bytes}${after}`);
}

/** The SHA-256 source expression of every inline script, hashed exactly as the browser will see it. */
function inlineScriptHashes(html) {
  const hashes = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1])) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** Step 2: the policy, first in <head> right after the charset (a policy covers only what follows it). */
function withPolicy(page) {
  if (page.includes('http-equiv="Content-Security-Policy"')) fail('the page already carries a policy');
  const hashes = inlineScriptHashes(page);
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const result = page.replace(/<meta charset="utf-8"\s*\/?>/i, (charset) => `${charset}${tag}`);
  if (result === page) fail('no <meta charset="utf-8"> to place the policy after');
  console.log(`finish-page.mjs: Content-Security-Policy written (${hashes.length} inline script(s) hashed)`);
  return result;
}

let page = await withRealWasmSize(await splitApp(staging, await readFile(file, 'utf8')));
if (process.env.TRUNK_PROFILE === 'release') page = withPolicy(page);
else console.log('finish-page.mjs: debug build, no Content-Security-Policy written');
await writeFile(file, page);
