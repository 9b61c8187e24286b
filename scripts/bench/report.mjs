// Turns the raw figures of one `./x bench` run (target/bench/latest.json) into markdown tables for docs/performance.md's
// performance section: medians over the rounds, and ratios taken within each round (same run, same
// machine state) before the median is taken. `node scripts/bench/report.mjs [FILE]` reprints a saved run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, median, millionsText, ratioText, rounded } from './common.mjs';

const FRAME_METRICS = [
  ['busy_ms_per_s', 'main thread busy (ms/s)'],
  ['script_ms_per_s', '… script (ms/s)'],
  ['style_layout_ms_per_s', '… style and layout (ms/s)'],
  ['other_ms_per_s', '… paint, raster, other (ms/s)'],
  ['fps', 'frames per second'],
  ['frame_p95_ms', 'p95 frame (ms)'],
  ['frame_worst_ms', 'worst frame (ms)'],
];

/** The median over rounds of `ours / theirs`, each pair taken from the same round. */
function pairedRatio(oursList, theirsList) {
  return median(oursList.map((value, index) => value / theirsList[index]));
}

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

function header(results) {
  const { machine, settings } = results;
  const when = `${results.date.slice(0, 10)} ${results.date.slice(11, 16)} UTC`;
  return [
    `Measured ${when} with \`${results.command}\`: ${plural(settings.rounds, 'round')} of frames (${settings.seconds_per_measurement} s per measurement`,
    `after a ${settings.warm_up_ms / 1000} s warm-up, each in a fresh page) and ${plural(settings.engine_rounds ?? settings.rounds, 'round')} of engine samples; ${machine.cores} cores`,
    `(${machine.cpu_model}), load average ${machine.load_average_1_min} at the start and ${machine.load_average_1_min_at_end ?? '–'} at the end;`,
    `headless Chromium ${machine.chromium} (--disable-gpu, ${settings.viewport.width}×${settings.viewport.height}). Ratios are ours / RaftScope`,
    `(or wasm / native), the median of each round's same-run ratio.`,
  ].join('\n');
}

function frameComparison(results) {
  if (!results.raftscope.available) return [`RaftScope comparison SKIPPED: ${results.raftscope.skipped_because}.`];
  const rounds = results.frame_rounds;
  const theirs = rounds.map((round) => round.raftscope);
  const ours = rounds.map((round) => round.quorumlab[results.our_cases[0].key]);
  const lines = [
    '| 5 nodes, each app at its default speed | ours / RaftScope | Quorum Lab | RaftScope |',
    '| --- | ---: | ---: | ---: |',
  ];
  for (const [key, label] of FRAME_METRICS) {
    const oursList = ours.map((run) => run[key]);
    const theirsList = theirs.map((run) => run[key]);
    lines.push(
      `| ${label} | ${ratioText(pairedRatio(oursList, theirsList))} | ${rounded(median(oursList))} | ${rounded(median(theirsList))} |`,
    );
  }
  return lines;
}

function harderCases(results) {
  const rounds = results.frame_rounds;
  const reference = rounds.map((round) => round.raftscope?.busy_ms_per_s ?? NaN);
  const lines = [
    '| Quorum Lab case | busy / RaftScope 5-node busy | busy (ms/s) | script | style and layout | paint, raster, other | fps | p95 frame (ms) | worst frame (ms) | RaftScope busy, same rounds |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const ourCase of results.our_cases) {
    const runs = rounds.map((round) => round.quorumlab[ourCase.key]);
    const middle = (key) => rounded(median(runs.map((run) => run[key])));
    const busy = runs.map((run) => run.busy_ms_per_s);
    lines.push(
      `| ${ourCase.label} | ${ratioText(pairedRatio(busy, reference))} | ${middle('busy_ms_per_s')} | ${middle('script_ms_per_s')} | ` +
        `${middle('style_layout_ms_per_s')} | ${middle('other_ms_per_s')} | ${middle('fps')} | ${middle('frame_p95_ms')} | ` +
        `${middle('frame_worst_ms')} | ${rounded(median(reference))} |`,
    );
  }
  return lines;
}

const KIND_OF_FILE = [
  [/\.wasm$/, 'wasm'],
  [/\.js$/, 'JS'],
  [/\.css$/, 'CSS'],
  [/\.(woff2?|ttf|eot|svg)$/, 'fonts, icons'],
  [/(\.html|\/)$/, 'HTML'],
];

function byKind(load) {
  const kinds = {};
  for (const file of load.files) {
    const kind = KIND_OF_FILE.find(([pattern]) => pattern.test(file.path))?.[1] ?? 'other';
    kinds[kind] = (kinds[kind] ?? 0) + file.gzip_bytes;
  }
  return Object.entries(kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, bytes]) => `${kind} ${rounded(bytes / 1024)}`)
    .join(', ');
}

function firstLoadTable(results) {
  const { quorumlab, raftscope } = results.first_load;
  const kb = (bytes) => rounded(bytes / 1024);
  const ratio = raftscope ? ratioText(quorumlab.gzip_bytes / raftscope.gzip_bytes) : '–';
  const lines = [
    '| first load | gzip -9, ours / RaftScope | gzip -9 (KB) | raw (KB) | files | gzip by kind (KB) |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    `| Quorum Lab | ${ratio} | ${kb(quorumlab.gzip_bytes)} | ${kb(quorumlab.raw_bytes)} | ${quorumlab.files.length} | ${byKind(quorumlab)} |`,
  ];
  if (quorumlab.after?.files.length) {
    const after = quorumlab.after;
    lines.push(`| Quorum Lab, fetched after the cluster is drawn | | ${kb(after.gzip_bytes)} | ${kb(after.raw_bytes)} | ${after.files.length} | ${byKind(after)} |`);
  }
  if (raftscope) {
    lines.push(`| RaftScope | | ${kb(raftscope.gzip_bytes)} | ${kb(raftscope.raw_bytes)} | ${raftscope.files.length} | ${byKind(raftscope)} |`);
  }
  return lines;
}

function engineTable(results) {
  const { samples } = results.engine;
  const rate = (key, side) => samples[key][side].map((sample) => sample.events_per_second);
  const lines = [
    '| engine workload | wasm / native | native events/s | wasm events/s | native, of bare loop | wasm, of bare loop |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const key of Object.keys(samples)) {
    const label = results.engine.labels?.[key] ?? key;
    const native = rate(key, 'native');
    const wasm = rate(key, 'wasm');
    const ofBare = (side, list) => percentText(key === 'bare_loop' ? 1 : pairedRatio(list, rate('bare_loop', side)));
    lines.push(
      `| ${label} | ${ratioText(pairedRatio(wasm, native))} | ${millionsText(median(native))} | ${millionsText(median(wasm))} | ` +
        `${ofBare('native', native)} | ${ofBare('wasm', wasm)} |`,
    );
  }
  return lines;
}

function percentText(share) {
  if (!Number.isFinite(share)) return '–';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

/** A simulated clock as recorded: RaftScope's in microseconds, Quorum Lab's as its text ("189 ms", "3.4 s"). */
function clockMs(clock) {
  if (typeof clock === 'number') return clock / 1_000;
  const [, value, unit] = String(clock).match(/([0-9.]+)\s*(ms|s)\b/) ?? [];
  return unit === 's' ? Number(value) * 1_000 : Number(value);
}

function simulatedSpeeds(results) {
  const speed = (run) => (clockMs(run.clock_after) - clockMs(run.clock_before)) / run.wall_seconds;
  const speeds = [];
  if (results.raftscope.available) speeds.push(`RaftScope ${rounded(median(results.frame_rounds.map((round) => speed(round.raftscope))))}`);
  for (const ourCase of results.our_cases) {
    speeds.push(`${ourCase.label} ${rounded(median(results.frame_rounds.map((round) => speed(round.quorumlab[ourCase.key]))))}`);
  }
  return `- Simulated ms per wall second while measured: ${speeds.join('; ')}.`;
}

/** Checks worth a line under the tables: native and wasm did the same work; no page reported a problem. */
function notes(results) {
  const lines = [];
  for (const [key, { native, wasm }] of Object.entries(results.engine.samples)) {
    const field = key === 'bare_loop' ? 'checksum_low_32' : 'events';
    const same = native.every((sample, index) => sample[field] === wasm[index][field]);
    lines.push(`- ${key}: native and wasm ${same ? 'did the same work' : 'DIFFER'} (${field} ${native[0][field]}).`);
  }
  lines.push(simulatedSpeeds(results));
  const problems = results.frame_rounds.flatMap((round) => [round.raftscope, ...Object.values(round.quorumlab)])
    .filter(Boolean)
    .flatMap((run) => run.problems);
  lines.push(problems.length === 0 ? '- No page reported an error.' : `- Page problems: ${[...new Set(problems)].join('; ')}`);
  return lines;
}

export function printReport(results) {
  const sections = [
    [header(results)],
    frameComparison(results),
    harderCases(results),
    firstLoadTable(results),
    engineTable(results),
    notes(results),
  ];
  console.log(sections.map((lines) => lines.join('\n')).join('\n\n'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? join(REPO_ROOT, 'target', 'bench', 'latest.json');
  printReport(JSON.parse(await readFile(file, 'utf8')));
}
