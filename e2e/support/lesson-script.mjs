// The course as a walker reads it: each lesson's id and steps, and for each step its solution (the list
// of moves "show me" would make, each `after_ms` after the step began), whether it opens a world of its
// own, how many prediction questions it asks and how many moves its paused run waits for. Read from
// lessons/*.md directly (the files the build copies into dist/), with just enough TOML for the
// front matter's simple keys and the solutions' inline tables.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './browser.mjs';

const LESSON_DIR = join(REPO_ROOT, 'lessons');

/** The text between the first two `+++` lines. */
function frontMatter(text, file) {
  const parts = text.split(/^\+\+\+\s*$/m);
  if (parts.length < 3) throw new Error(`${file}: no +++ front matter`);
  return parts[1];
}

/** Drops `#` comments that are outside strings, line by line. */
function withoutComments(toml) {
  return toml
    .split('\n')
    .map((line) => {
      let inString = false;
      for (let index = 0; index < line.length; index += 1) {
        if (line[index] === '"') inString = !inString;
        if (line[index] === '#' && !inString) return line.slice(0, index);
      }
      return line;
    })
    .join('\n');
}

/** The bracketed array that starts at `start` (an index of `[`), with its brackets. */
function bracketed(text, start) {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"' && text[index - 1] !== '\\') inString = !inString;
    if (inString) continue;
    if (char === '[') depth += 1;
    if (char === ']') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  throw new Error('unbalanced brackets in a solution');
}

/** A solution array of inline tables, as TOML writes it, turned into JSON and parsed. */
function parseSolution(array, where) {
  const json = array
    .replace(/([{,]\s*)([a-z_]+)\s*=/g, '$1"$2":')
    .replace(/,(\s*[\]}])/g, '$1');
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new Error(`${where}: the solution does not read as simple inline tables: ${error.message}`);
  }
}

function readStep(chunk, where) {
  const solutionAt = chunk.search(/^solution\s*=\s*\[/m);
  if (solutionAt < 0) throw new Error(`${where}: no solution`);
  const solution = parseSolution(bracketed(chunk, chunk.indexOf('[', solutionAt)), where);
  const moves = /^moves_while_paused\s*=\s*(\d+)/m.exec(chunk);
  const within = /^within_ms\s*=\s*(\d+)/m.exec(chunk);
  return {
    solution: solution.sort((a, b) => a.after_ms - b.after_ms),
    ownWorld: /^scenario\s*=/m.test(chunk),
    predictions: (chunk.match(/^\[\[step\.predict\]\]/gm) ?? []).length,
    movesWhilePaused: moves ? Number(moves[1]) : 1,
    // Time allowed after the last move (the lesson format's default is 3000 ms).
    withinMs: within ? Number(within[1]) : 3000,
    checkpoint: /^checkpoint\s*=\s*"([^"]+)"/m.exec(chunk)?.[1] ?? '',
  };
}

/** One lesson file: `{ id, file, steps }`. */
export function readLesson(file) {
  const toml = withoutComments(frontMatter(readFileSync(join(LESSON_DIR, file), 'utf8'), file));
  const [head, ...chunks] = toml.split(/^\[\[step\]\]\s*$/m);
  // Interview questions come after the steps; they hold no step keys.
  const steps = chunks.map((chunk, index) => readStep(chunk.split(/^\[\[interview\]\]/m)[0], `${file} step ${index + 1}`));
  const id = /^id\s*=\s*"([^"]+)"/m.exec(head)?.[1];
  if (!id) throw new Error(`${file}: no id`);
  return { id, file, steps };
}

/** Every lesson, in file order (which is course order). */
export function readCourse() {
  return readdirSync(LESSON_DIR)
    .filter((name) => /^\d\d-.*\.md$/.test(name))
    .sort()
    .map(readLesson);
}
