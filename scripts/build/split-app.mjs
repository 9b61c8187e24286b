// The code-splitting step Trunk lacks (trunk-rs/trunk#1022), run from Trunk's post_build hook
// (finish-page.mjs) before the page's last touches.
//
// Trunk ran cargo, then wasm-bindgen and copied the app's files into the staging folder. Splitting must
// happen between cargo and wasm-bindgen, so this step goes back to the wasm as linked and does it again:
//   1. tools/wasm-split (built here by cargo, like everything else) cuts the linked wasm at its split
//      functions (`wasm_split` attributes, src/lazy_part.rs) into a first module, parts, and the small
//      module that loads a part;
//   2. wasm-bindgen makes the first module's glue, exactly as Trunk called it;
//   3. release builds: wasm-opt -Oz (npm binaryen, never the system's) shrinks every wasm file, the work
//      index.html's data-wasm-opt="0" takes away from Trunk;
//   4. the glue and first module replace Trunk's under Trunk's own names (so its start-up script is
//      unchanged), the parts and loader are named by their content's hash (so the service worker keeps
//      them cache-first like every hashed file), and index.html gets the new files' integrity, a
//      modulepreload of the loader (imported by the glue, so it would cost a round trip later) and a
//      list of the parts, from which the service worker precaches them for offline use.
// Each part is fetched relative to the loader, so dist/ works from any folder of any host.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const APP = 'quorumlab-app';
// The tool writes this import name into the first module; the glue then imports the loader by it.
const LOADER_PLACEHOLDER = './__wasm_split.js';
// The loader imports the glue's `initSync` by this name, which becomes the glue's real one.
const GLUE_PLACEHOLDER = './main.js';

function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

function contentHash(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function integrity(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

function cargoTargetFolder(source) {
  const metadata = execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps', '--offline'], {
    cwd: source,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(metadata).target_directory;
}

/** The staged glue's base name, as Trunk hashed it: quorumlab-app-<hash> (or quorumlab-app). */
async function stagedBase(staging) {
  const glue = (await readdir(staging)).filter((name) => /^quorumlab-app(?:-[0-9a-f]+)?\.js$/.test(name));
  if (glue.length !== 1) throw new Error(`expected one ${APP} glue file in ${staging}, found ${glue.length}`);
  return glue[0].slice(0, -'.js'.length);
}

/** Steps 1-3: the split, the glue and the optimised files, in `work`. */
function splitAndBind(source, linked, work) {
  run('cargo', ['build', '--quiet', '--locked', '--profile', 'split-tool', '-p', 'quorumlab-wasm-split'], { cwd: source });
  const tool = join(cargoTargetFolder(source), 'split-tool', 'quorumlab-wasm-split');
  run(tool, [linked, work]);
  run('wasm-bindgen', ['--target=web', `--out-dir=${join(work, 'bindgen')}`, `--out-name=${APP}`, '--no-typescript', join(work, 'main.wasm')]);
}

async function optimise(source, files) {
  // Never the system's binaryen (Debian's 108 breaks the wasm): the npm package's, as for Trunk.
  const wasmOpt = join(source, 'node_modules', '.bin', 'wasm-opt');
  for (const file of files) run(wasmOpt, ['-Oz', file, '-o', file]);
}

/** Step 4: the files into the staging folder and index.html. Returns the parts' names. */
async function stage(staging, work, base, page) {
  const partFiles = (await readdir(work)).filter((name) => name.endsWith('.wasm') && name !== 'main.wasm');
  let loader = await readFile(join(work, '__wasm_split.js'), 'utf8');
  const parts = [];
  for (const file of partFiles) {
    const bytes = await readFile(join(work, file));
    const named = `${file.slice(0, -'.wasm'.length)}-${contentHash(bytes)}.wasm`;
    const quoted = `"./${file}"`;
    if (!loader.includes(quoted)) throw new Error(`the loader does not name the part ${file}`);
    loader = loader.replaceAll(quoted, `"./${named}"`);
    await writeFile(join(staging, named), bytes);
    parts.push(named);
  }
  if (!loader.includes(`"${GLUE_PLACEHOLDER}"`)) throw new Error('the loader does not import the glue');
  loader = loader.replace(`"${GLUE_PLACEHOLDER}"`, `"./${base}.js"`);
  const loaderName = `${APP}-split-${contentHash(loader)}.js`;
  await writeFile(join(staging, loaderName), loader);

  let glue = await readFile(join(work, 'bindgen', `${APP}.js`), 'utf8');
  // Only the `import … from` statements (wasm-bindgen writes one per imported function) name the loader's
  // file; the imports object keeps the module name the wasm asks for.
  const glueImport = new RegExp(`(\\bfrom\\s*)(['"])${LOADER_PLACEHOLDER.replaceAll('.', '\\.')}\\2`, 'g');
  if (!glue.match(glueImport)) throw new Error(`the glue does not import ${LOADER_PLACEHOLDER}`);
  glue = glue.replace(glueImport, (_, from, quote) => `${from}${quote}./${loaderName}${quote}`);
  const wasm = await readFile(join(work, 'bindgen', `${APP}_bg.wasm`));
  await writeFile(join(staging, `${base}.js`), glue);
  await writeFile(join(staging, `${base}_bg.wasm`), wasm);
  if (existsSync(join(work, 'bindgen', 'snippets'))) {
    await cp(join(work, 'bindgen', 'snippets'), join(staging, 'snippets'), { recursive: true });
  }
  return { page: withNewFiles(page, base, glue, wasm, loaderName, loader, parts), parts, loaderName };
}

/** index.html: the replaced files' integrity, the loader preloaded, the parts listed for the worker. */
function withNewFiles(page, base, glue, wasm, loaderName, loader, parts) {
  const swap = (name, bytes) => {
    const tag = new RegExp(`(<link[^>]*href="(?:\\./)?${name.replaceAll('.', '\\.')}"[^>]*integrity=")[^"]*(")`);
    if (!tag.test(page)) return;
    page = page.replace(tag, (_, before, after) => `${before}${integrity(bytes)}${after}`);
  };
  swap(`${base}.js`, glue);
  swap(`${base}_bg.wasm`, wasm);
  const preload = `<link rel="modulepreload" href="./${loaderName}" crossorigin="anonymous" integrity="${integrity(loader)}">`;
  const list = `<meta name="quorumlab-parts" content="${parts.map((part) => `./${part}`).join(' ')}">`;
  const result = page.replace('</head>', `${preload}${list}</head>`);
  if (result === page) throw new Error('index.html has no </head>');
  return result;
}

/** The whole step on the staged page's text; returns the new text (unchanged when nothing is lazy). */
export async function splitApp(staging, page) {
  const source = process.env.TRUNK_SOURCE_DIR ?? process.cwd();
  const profile = process.env.TRUNK_PROFILE === 'release' ? 'release' : 'debug';
  const linked = join(cargoTargetFolder(source), 'wasm32-unknown-unknown', profile, `${APP}.wasm`);
  if (!(await readFile(linked)).includes('__wasm_split_unstable')) {
    console.log('split-app.mjs: the app has no lazy function; nothing to split');
    return page;
  }
  const base = await stagedBase(staging);
  const work = join(cargoTargetFolder(source), 'wasm-split', profile);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  splitAndBind(source, linked, work);
  if (profile === 'release') {
    const parts = (await readdir(work)).filter((name) => name.endsWith('.wasm') && name !== 'main.wasm');
    await optimise(source, [join(work, 'bindgen', `${APP}_bg.wasm`), ...parts.map((name) => join(work, name))]);
  }
  const staged = await stage(staging, work, base, page);
  console.log(`split-app.mjs: ${base}_bg.wasm first, then ${staged.parts.length} part(s) on first use, loaded by ${staged.loaderName}`);
  return staged.page;
}
