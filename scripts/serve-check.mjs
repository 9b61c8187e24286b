// The `serve` stage of ./x test: the README's first command, tried the way a new user runs it.
//
// It copies the project into a fresh clone outside the work tree (a fixed folder under the system's temp), runs `./x serve` there, waits for the
// page, fetches the wasm, its JavaScript and every lesson file through that server, then floods the
// clone's target/ folder and project root with file events (as a cold cargo build and an editor's
// scratch files do) and checks the server neither died nor rebuilt. Last, it kills Trunk itself and
// checks that ./x serve says so and serves again. The clone's target/ is a link to target/serve-check/
// here, so a second run is warm; in CI (a fresh clone) this is the cold first run the README promises.
//
// Usage: node scripts/serve-check.mjs   (exit status 0 when every check passed)
import { spawn, execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// A cold release build of the whole app on a 2-core machine takes minutes; a warm one seconds.
const FIRST_PAGE_DEADLINE_MS = 40 * 60_000;
const RESTART_DEADLINE_MS = 10 * 60_000;
const FLOOD_FOLDERS = 2_000;
const FILES_PER_FOLDER = 10;
const ROOT_FILES = 3_000;

const failures = [];
let passed = 0;
function check(condition, what) {
  if (condition) {
    passed += 1;
    console.log(`  ok    ${what}`);
  } else {
    failures.push(what);
    console.log(`  FAIL  ${what}`);
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function waitUntilTrue(probe, deadlineMs) {
  for (const started = Date.now(); Date.now() - started < deadlineMs; await sleep(1_000)) {
    if (await probe()) return true;
  }
  return false;
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** A clone of this repository with the work tree's current files (tracked and new, not ignored) over it. */
async function makeClone() {
  // Always the same folder, and the work tree's files copied with their times: cargo then finds the
  // clone's crates unchanged since the last check and reuses target/serve-check (a new path or fresh
  // times would rebuild both crates with LTO, minutes every run).
  const clone = join(tmpdir(), 'quorumlab-serve-check');
  await rm(clone, { recursive: true, force: true });
  execFileSync('git', ['clone', '--quiet', REPO_ROOT, clone]);
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
  });
  for (const path of listed.toString().split('\0').filter(Boolean)) {
    await mkdir(dirname(join(clone, path)), { recursive: true });
    await cp(join(REPO_ROOT, path), join(clone, path), { preserveTimestamps: true }).catch(() => {}); // a file deleted but not yet committed
  }
  const targetHere = join(REPO_ROOT, 'target', 'serve-check');
  await mkdir(targetHere, { recursive: true });
  await symlink(targetHere, join(clone, 'target'));
  return clone;
}

/** Starts `./x serve` in its own process group; its output goes to `log` and is kept in `output`. */
function startServe(clone, port) {
  const child = spawn('./x', ['serve'], {
    cwd: clone,
    env: { ...process.env, QUORUMLAB_PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { child, output: '', exited: null };
  const keep = (chunk) => {
    state.output += chunk.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', (code, signal) => {
    state.exited = { code, signal };
  });
  return state;
}

async function fetchOk(url) {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

/** Waits for the served page to name the app's wasm; fails early if ./x serve ended. */
async function waitForPage(base, serve, deadlineMs, what) {
  const started = Date.now();
  while (Date.now() - started < deadlineMs) {
    if (serve.exited) return { page: null, why: `./x serve ended (${JSON.stringify(serve.exited)})` };
    const response = await fetchOk(base);
    if (response) {
      const page = await response.text();
      if (/quorumlab-app-[0-9a-f]+_bg\.wasm/.test(page)) {
        console.log(`  ..    ${what}: page served after ${((Date.now() - started) / 1000).toFixed(0)} s`);
        return { page, why: null };
      }
    }
    await sleep(2_000);
  }
  return { page: null, why: `no page within ${deadlineMs / 60_000} min` };
}

async function fetchBuiltFiles(base, page, clone) {
  const wasmName = page.match(/quorumlab-app-[0-9a-f]+_bg\.wasm/)[0];
  const jsName = page.match(/quorumlab-app-[0-9a-f]+\.js/)[0];
  check(!/(src|href)="\/[^/]/.test(page) && page.includes(`./${jsName}`), 'the page names its files by relative addresses');
  const wasm = await fetchOk(base + wasmName);
  const wasmBytes = wasm ? new Uint8Array(await wasm.arrayBuffer()) : new Uint8Array();
  check(wasm?.headers.get('content-type') === 'application/wasm', `${wasmName} is served as application/wasm`);
  check(wasmBytes.length > 500_000 && wasmBytes[0] === 0 && wasmBytes[1] === 0x61, `${wasmName} is a whole wasm module (${wasmBytes.length} bytes)`);
  check(Boolean(await fetchOk(base + jsName)), `${jsName} is served`);
  const lessonNames = (await readdir(join(clone, 'lessons'))).filter((name) => name.endsWith('.md'));
  const scenarioNames = (await readdir(join(clone, 'lessons', 'scenarios'))).map((name) => `scenarios/${name}`);
  let same = 0;
  for (const name of [...lessonNames, ...scenarioNames]) {
    const response = await fetchOk(`${base}lessons/${name}`);
    const text = response ? await response.text() : null;
    if (text === (await readFile(join(clone, 'lessons', name), 'utf8'))) same += 1;
    else console.log(`        lessons/${name}: ${response ? 'differs from the file' : 'not served'}`);
  }
  const total = lessonNames.length + scenarioNames.length;
  check(same === total && total > 10, `every lesson file is served as written (${same} of ${total})`);
}

/** Creates and removes many files and folders where a build and an editor would. */
async function flood(clone) {
  for (const [label, folder] of [['target', join(clone, 'target', 'flood')], ['root', clone]]) {
    const started = Date.now();
    if (label === 'target') {
      for (let index = 0; index < FLOOD_FOLDERS; index += 1) {
        const sub = join(folder, `d${index}`, 'deps');
        await mkdir(sub, { recursive: true });
        await Promise.all(Array.from({ length: FILES_PER_FOLDER }, (_, file) => writeFile(join(sub, `f${file}.rlib`), 'x')));
      }
      await rm(folder, { recursive: true, force: true });
    } else {
      const names = Array.from({ length: ROOT_FILES }, (_, index) => join(folder, `.flood-${index}.tmp`));
      await Promise.all(names.map((name) => writeFile(name, 'x')));
      await Promise.all(names.map((name) => rm(name, { force: true })));
    }
    console.log(`  ..    flooded ${label} with file events (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

const buildsStarted = (output) => (output.match(/starting build/g) ?? []).length;

async function main() {
  const clone = await makeClone();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  console.log(`serve check: ./x serve in ${clone}, port ${port}`);
  const serve = startServe(clone, port);
  try {
    const first = await waitForPage(base, serve, FIRST_PAGE_DEADLINE_MS, 'first start');
    check(Boolean(first.page), `./x serve serves the page from a fresh clone${first.why ? ` (${first.why})` : ''}`);
    if (!first.page) return;
    await fetchBuiltFiles(base, first.page, clone);

    await sleep(3_000); // Trunk's post-build cooldown
    const buildsBefore = buildsStarted(serve.output);
    await flood(clone);
    await sleep(5_000);
    check(!serve.exited, './x serve still runs after the flood');
    check(!/panicked/.test(serve.output), 'no thread panicked');
    check(buildsBefore >= 1 && buildsStarted(serve.output) === buildsBefore, `the flood started no rebuild (only sources are watched; ${buildsBefore} build(s) seen before it)`);
    check(Boolean(await fetchOk(base)), 'the page is still served after the flood');

    // The watcher outlived the flood: a changed source still starts a build. (A watcher thread that
    // panicked leaves Trunk serving the old build forever, which no fetch would notice.)
    const pageBefore = (await (await fetchOk(base))?.text()) ?? '';
    const styleFile = join(clone, 'style', 'boot.css');
    await writeFile(styleFile, `${await readFile(styleFile, 'utf8')}\n/* serve check */\n`);
    const rebuilt = await waitUntilTrue(async () => {
      const page = (await (await fetchOk(base))?.text()) ?? '';
      return buildsStarted(serve.output) > buildsBefore && /boot-[0-9a-f]+\.css/.test(page) && page !== pageBefore;
    }, RESTART_DEADLINE_MS);
    check(rebuilt, 'after the flood, a changed stylesheet is rebuilt and served (the watcher is alive)');

    // Trunk dying under ./x serve (as its watcher once made it) must be said and mended.
    const trunkPids = execFileSync('pgrep', ['-g', String(serve.child.pid), '-x', 'trunk']).toString().trim().split(/\s+/);
    for (const pid of trunkPids) process.kill(Number(pid), 'SIGKILL');
    const again = await waitForPage(base, serve, RESTART_DEADLINE_MS, 'after Trunk was killed');
    check(/stopped on its own/.test(serve.output), './x serve says Trunk stopped');
    check(Boolean(again.page), `./x serve serves again after Trunk was killed${again.why ? ` (${again.why})` : ''}`);
  } finally {
    if (!serve.exited) {
      try {
        process.kill(-serve.child.pid, 'SIGINT');
      } catch {}
      for (let waited = 0; !serve.exited && waited < 20; waited += 1) await sleep(500);
      if (!serve.exited) process.kill(-serve.child.pid, 'SIGKILL');
    }
    if (failures.length) console.log(`--- ./x serve output (last 60 lines) ---\n${serve.output.split('\n').slice(-60).join('\n')}`);
    await rm(clone, { recursive: true, force: true });
  }
}

await main();
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
