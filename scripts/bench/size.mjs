// Where the wasm's bytes go: the code of each crate, the data, and the rest, read from the wasm that
// wasm-bindgen wrote before wasm-opt (target/wasm-bindgen/release/, which keeps the function names).
// wasm-opt then shrinks every part (the shipped file is smaller); the shares are what to cut first.
//   node scripts/bench/size.mjs [--top 12]      (after `trunk build --release`)
// Then the first load and each part loaded on first use (scripts/build/split-app.mjs), gzip -9, as built.
// Reports, never asserts.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { REPO_ROOT, option } from './common.mjs';

const SECTION_NAMES = { 0: 'custom', 1: 'type', 2: 'import', 3: 'function', 7: 'export', 10: 'code', 11: 'data' };

function reader(bytes, start = 0) {
  let at = start;
  const u32 = () => {
    let result = 0, shift = 0, byte;
    do { byte = bytes[at++]; result += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
    return result;
  };
  const name = () => { const length = u32(); const text = Buffer.from(bytes.subarray(at, at + length)).toString('utf8'); at += length; return text; };
  return { u32, name, get at() { return at; }, set at(value) { at = value; } };
}

/** Sections, imported function count, each defined function's body, and the name section's names. */
function parseWasm(bytes) {
  const sections = [];
  const input = reader(bytes, 8);
  while (input.at < bytes.length) {
    const id = bytes[input.at++];
    const size = input.u32();
    sections.push({ id, start: input.at, size });
    input.at += size;
  }
  let importedFunctions = 0;
  const bodies = [];
  const names = new Map();
  for (const section of sections) {
    const body = reader(bytes, section.start);
    if (section.id === 2) {
      for (let count = body.u32(), index = 0; index < count; index++) {
        body.name(); body.name();
        const kind = bytes[body.at++];
        if (kind === 0) { body.u32(); importedFunctions++; }
        else if (kind === 1) { body.at++; const flags = body.u32(); body.u32(); if (flags & 1) body.u32(); }
        else if (kind === 2) { const flags = body.u32(); body.u32(); if (flags & 1) body.u32(); }
        else if (kind === 3) { body.at += 2; }
      }
    } else if (section.id === 10) {
      for (let count = body.u32(), index = 0; index < count; index++) {
        const size = body.u32();
        bodies.push({ start: body.at, size });
        body.at += size;
      }
    } else if (section.id === 0) {
      section.name = body.name();
      if (section.name !== 'name') continue;
      const end = section.start + section.size;
      while (body.at < end) {
        const kind = bytes[body.at++];
        const size = body.u32();
        const next = body.at + size;
        if (kind === 1) {
          for (let count = body.u32(), index = 0; index < count; index++) names.set(body.u32(), body.name());
        }
        body.at = next;
      }
    }
  }
  return { sections, importedFunctions, bodies, names };
}

/** The crate a Rust function name belongs to: its path's first segment (for `<T as Trait>`, the trait's). */
function crateOf(functionName) {
  let text = functionName.replace(/\[[0-9a-f]{16}\]/g, '').replace(/^[<&]+|^mut /g, '');
  const asTrait = text.match(/^([A-Za-z0-9_]+|\([^)]*\)|\[[^\]]*\]) as ([^>]+)/);
  if (asTrait) text = asTrait[2];
  text = text.replace(/^[<&]+|^(mut|dyn) /g, '');
  const path = text.match(/^([A-Za-z_][A-Za-z0-9_]*)::/);
  if (path) return path[1];
  if (/^(__|memcpy|memmove|memset|memcmp)/.test(text)) return 'runtime (mem*, intrinsics)';
  return 'other';
}

const wasmDir = join(REPO_ROOT, 'target', 'wasm-bindgen', 'release');
const named = readdirSync(wasmDir).find((file) => file.startsWith('quorumlab-app') && file.endsWith('_bg.wasm'));
const shipped = readdirSync(join(REPO_ROOT, 'dist')).find((file) => file.startsWith('quorumlab-app-') && file.endsWith('_bg.wasm'));
if (!named || !shipped) {
  console.error('no release build: run `trunk build --release` first');
  process.exit(2);
}
const bytes = readFileSync(join(wasmDir, named));
const { sections, importedFunctions, bodies, names } = parseWasm(bytes);
const byCrate = new Map();
bodies.forEach((body, index) => {
  const crate = crateOf(names.get(index + importedFunctions) ?? '');
  const entry = byCrate.get(crate) ?? { bytes: 0, functions: 0, chunks: [] };
  entry.bytes += body.size;
  entry.functions += 1;
  entry.chunks.push(bytes.subarray(body.start, body.start + body.size));
  byCrate.set(crate, entry);
});
const codeBytes = bodies.reduce((sum, body) => sum + body.size, 0);
const kib = (value) => (value / 1024).toFixed(1);
const shippedBytes = readFileSync(join(REPO_ROOT, 'dist', shipped));
console.log(`Shipped ${shipped}: ${kib(shippedBytes.length)} KiB raw, ${kib(gzipSync(shippedBytes, { level: 9 }).length)} KiB gzip -9.`);
console.log(`Before wasm-opt (${named}, names kept): ${kib(bytes.length)} KiB; code ${kib(codeBytes)} KiB in ${bodies.length} functions.\n`);
console.log('| section (before wasm-opt) | KiB | share |');
console.log('| --- | ---: | ---: |');
for (const section of sections) {
  if (section.size < 4096) continue;
  const label = section.id === 0 ? `custom \`${section.name}\`` : SECTION_NAMES[section.id] ?? `section ${section.id}`;
  console.log(`| ${label} | ${kib(section.size)} | ${((100 * section.size) / bytes.length).toFixed(1)}% |`);
}
const top = Number(option('top', '14'));
console.log('\n| crate (code before wasm-opt) | functions | KiB | share of code | gzip -9 alone (KiB) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const rows = [...byCrate.entries()].sort((a, b) => b[1].bytes - a[1].bytes);
for (const [crate, entry] of rows.slice(0, top)) {
  const gzip = gzipSync(Buffer.concat(entry.chunks), { level: 9 }).length;
  console.log(`| ${crate} | ${entry.functions} | ${kib(entry.bytes)} | ${((100 * entry.bytes) / codeBytes).toFixed(1)}% | ${kib(gzip)} |`);
}
if (process.argv.includes('--unmatched')) {
  const unmatched = bodies.map((_, index) => names.get(index + importedFunctions) ?? '').filter((name) => crateOf(name) === 'other');
  console.log(unmatched.slice(0, 40).join('\n'));
}
const rest = rows.slice(top).reduce((sum, [, entry]) => sum + entry.bytes, 0);
if (rest) console.log(`| ${rows.length - top} more | | ${kib(rest)} | ${((100 * rest) / codeBytes).toFixed(1)}% | |`);

/** The first load (the page's glue, the split's loader and the first module) and each lazily loaded part. */
function splitReport() {
  const dist = join(REPO_ROOT, 'dist');
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const parts = (page.match(/<meta name="quorumlab-parts" content="([^"]*)"/)?.[1] ?? '').split(' ').filter(Boolean);
  const first = readdirSync(dist).filter((file) => /^quorumlab-app-.*\.(js|wasm)$/.test(file));
  const row = (file) => {
    const fileBytes = readFileSync(join(dist, file.replace(/^\.\//, '')));
    return { file, raw: fileBytes.length, gzip: gzipSync(fileBytes, { level: 9 }).length };
  };
  const firstRows = first.map(row);
  const firstGzip = firstRows.reduce((sum, entry) => sum + entry.gzip, 0);
  console.log('\n| first load and parts (dist/, as shipped) | raw KiB | gzip -9 KiB |');
  console.log('| --- | ---: | ---: |');
  for (const entry of firstRows) console.log(`| first: ${entry.file} | ${kib(entry.raw)} | ${kib(entry.gzip)} |`);
  console.log(`| **first load, app code** | | **${kib(firstGzip)}** |`);
  for (const entry of parts.map(row).sort((a, b) => b.gzip - a.gzip)) console.log(`| part: ${entry.file} | ${kib(entry.raw)} | ${kib(entry.gzip)} |`);
  if (!parts.length) console.log('| (no parts: the build is not split) | | |');
}
splitReport();
