// `./x bench --first-paint`: how soon a first visit shows something, Quorum Lab beside RaftScope, on two
// connection profiles. Each round opens each page in a fresh browser with an empty cache (alternating
// which goes first), served gzip-compressed from loopback through DevTools' network and CPU throttling,
// and reads first-contentful-paint (the browser's own paint timing), the moment the cluster is drawn,
// and the moment it runs: its simulated clock has moved on from zero (RaftScope's `state.current.time`,
// Quorum Lab's clock in the playback bar), so the page is drawing and answering, not still starting.
// Medians over the rounds, and the ratio of the medians taken in this same run. Asserts nothing.
//
//   node scripts/bench/first-paint.mjs [--rounds 5]
import { join } from 'node:path';
import { launchChromium } from '../../e2e/support/browser.mjs';
import { serveDist } from '../../e2e/support/server.mjs';
import { RAFTSCOPE_DIR, REPO_ROOT, machineNote, median, positiveNumberOption, raftScopeAvailable, ratioText, rounded } from './common.mjs';

const PROFILES = [
  { name: 'phone-class', label: '1.6 Mbit/s, 150 ms round trip, CPU 4× slower', downloadKbit: 1600, uploadKbit: 750, latencyMs: 150, cpu: 4 },
  { name: 'laptop-class', label: '10 Mbit/s, 40 ms round trip, CPU 1×', downloadKbit: 10_000, uploadKbit: 5_000, latencyMs: 40, cpu: 1 },
];

const PAGES = [
  {
    name: 'RaftScope',
    root: RAFTSCOPE_DIR,
    drawn: '#servers g.server, g.server',
    running: () => (window.state?.current?.time ?? 0) > 0,
  },
  {
    name: 'Quorum Lab',
    root: join(REPO_ROOT, 'dist'),
    drawn: '[data-testid=cluster-view] g[data-testid^="node-n"]',
    running: () => /[1-9]/.test(document.querySelector('[data-testid=sim-time]')?.textContent ?? ''),
  },
];

async function measureOnce(url, { drawn: drawnSelector, running }, profile) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.enable');
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latencyMs,
      downloadThroughput: (profile.downloadKbit * 1000) / 8,
      uploadThroughput: (profile.uploadKbit * 1000) / 8,
    });
    await session.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    const started = Date.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector(drawnSelector, { timeout: 120_000 });
    const drawnMs = Date.now() - started;
    await page.waitForFunction(running, null, { timeout: 120_000, polling: 'raf' });
    const runningMs = Date.now() - started;
    const firstPaintMs = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    );
    return { firstPaintMs, drawnMs, runningMs };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!raftScopeAvailable()) {
    console.log(`first-paint: SKIPPED — RaftScope is not at ${RAFTSCOPE_DIR} (it lives in ../shared beside this workspace)`);
    return;
  }
  const rounds = positiveNumberOption('rounds', 5);
  const servers = await Promise.all(PAGES.map((page) => serveDist(page.root, { gzip: true })));
  const results = {};
  try {
    for (const profile of PROFILES) {
      for (const page of PAGES) results[`${profile.name}/${page.name}`] = [];
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const index of order) {
          const measured = await measureOnce(servers[index].url + '/', PAGES[index], profile);
          results[`${profile.name}/${PAGES[index].name}`].push(measured);
          console.error(`${profile.name} round ${round + 1} ${PAGES[index].name}: first paint ${rounded(measured.firstPaintMs)} ms, drawn ${rounded(measured.drawnMs)} ms, running ${rounded(measured.runningMs)} ms`);
        }
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
  console.log(`\nFirst visit, gzip-served, empty cache; medians of ${rounds} alternating rounds (${new Date().toISOString().slice(0, 16)} UTC)\n`);
  console.log('| profile | RaftScope first paint | Quorum Lab first paint | ratio | RaftScope cluster drawn | Quorum Lab cluster drawn | ratio | RaftScope running | Quorum Lab running | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const profile of PROFILES) {
    const [theirs, ours] = PAGES.map((page) => results[`${profile.name}/${page.name}`]);
    const paint = [theirs, ours].map((list) => median(list.map((entry) => entry.firstPaintMs)));
    const drawn = [theirs, ours].map((list) => median(list.map((entry) => entry.drawnMs)));
    const running = [theirs, ours].map((list) => median(list.map((entry) => entry.runningMs)));
    console.log(
      `| ${profile.name}: ${profile.label} | ${rounded(paint[0])} ms | ${rounded(paint[1])} ms | ${ratioText(paint[1] / paint[0])} | ` +
        `${rounded(drawn[0])} ms | ${rounded(drawn[1])} ms | ${ratioText(drawn[1] / drawn[0])} | ` +
        `${rounded(running[0])} ms | ${rounded(running[1])} ms | ${ratioText(running[1] / running[0])} |`,
    );
  }
  console.log(`\nmachine: ${JSON.stringify(machineNote())}`);
}

await main();
