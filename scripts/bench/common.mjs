// Helpers shared by the benchmark scripts in scripts/bench/: command-line options, medians and
// percentiles, rounding for the tables, where RaftScope lives, and a note on the machine.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../e2e/support/browser.mjs';

export { REPO_ROOT };

/** RaftScope, the reference, beside this workspace's clone only (absent on other clones). */
export const RAFTSCOPE_DIR = resolve(process.env.RAFTSCOPE_DIR ?? join(REPO_ROOT, '..', 'shared', 'anchors', 'raftscope'));

export function raftScopeAvailable() {
  return existsSync(join(RAFTSCOPE_DIR, 'index.html'));
}

/** `--name value` from the command line, or `fallback`. */
export function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}

export function flag(name) {
  return process.argv.includes(`--${name}`);
}

export function positiveNumberOption(name, fallback) {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
  return value;
}

export function median(values) {
  const numbers = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (numbers.length === 0) return NaN;
  const middle = Math.floor(numbers.length / 2);
  return numbers.length % 2 === 1 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2;
}

/** The p-th percentile (nearest rank) of an ascending list. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A number rounded to three significant figures (whole above 100), written for a table ("–" when missing). */
export function rounded(value) {
  if (!Number.isFinite(value)) return '–';
  const threeFigures = value.toPrecision(3);
  return Math.abs(Number(threeFigures)) >= 100 ? Math.round(value).toLocaleString('en-US') : threeFigures;
}

/** A ratio written with two decimals and a ×, e.g. "1.84×". */
export function ratioText(value) {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

/** Events per second in millions, e.g. "1.37 M". */
export function millionsText(value) {
  return Number.isFinite(value) ? `${(value / 1e6).toFixed(2)} M` : '–';
}

export function machineNote() {
  const models = [...new Set(cpus().map((cpu) => cpu.model.trim()))];
  return {
    cores: Number(execFileSync('nproc', { encoding: 'utf8' }).trim()),
    cpu_model: models.join(', '),
    load_average_1_min: Number(loadavg()[0].toFixed(2)),
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
