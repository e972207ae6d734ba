// Builds and pins the corpus: `node crates/writ-js/tests/corpus/pin.mjs` (from anywhere).
//
// - Every differential topic: the cases come from gen/<topic>.mjs; each line is run through the
//   node oracle (oracle/run.mjs --lang js, TZ=UTC) and written to <topic>.jsonl with the
//   oracle's envelope as "expect".
// - The refusal corpus: gen/refusals.mjs names writ's expected answer for each case; the files
//   go to refusals/<file>.jsonl as they are.
// - `node pin.mjs --file <name>.jsonl` re-pins one existing file in place (its lines keep every
//   field but "expect"), for a file written by hand such as locale.jsonl.
//
// It prints the cases whose answer is an error outside errors.jsonl, and the cases whose answer
// changed since the last pin, so that a re-pin can be read before it is committed.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, '../../../../oracle/run.mjs');

export const TOPICS = [
  'operators', 'coercion', 'templates', 'members', 'literals', 'callbacks', 'arrays', 'strings',
  'numbers', 'math', 'json', 'object', 'globals', 'errors', 'realistic',
];

function runOracle(lines) {
  const out = execFileSync(process.execPath, [oracle, '--lang', 'js', '-'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    maxBuffer: 1 << 28,
  });
  const envelopes = out.split('\n').filter((line) => line !== '');
  if (envelopes.length !== lines.length) throw new Error(`the oracle answered ${envelopes.length} of ${lines.length} lines`);
  return envelopes.map((line) => JSON.parse(line));
}

function previous(path) {
  const map = new Map();
  if (!existsSync(path)) return map;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const tc = JSON.parse(line);
    if (tc.expect !== undefined) map.set(tc.id, JSON.stringify(tc.expect));
  }
  return map;
}

function write(path, cases) {
  writeFileSync(path, cases.map((tc) => JSON.stringify(tc)).join('\n') + '\n');
}

function pinCases(name, cases) {
  const path = join(here, `${name}.jsonl`);
  const before = previous(path);
  const requests = cases.map(({ expect, ...rest }) => JSON.stringify(rest));
  const envelopes = runOracle(requests);
  const pinned = cases.map(({ expect: _, ...rest }, i) => ({ ...rest, expect: envelopes[i] }));
  for (const tc of pinned) {
    const now = JSON.stringify(tc.expect);
    if (!tc.expect.ok && name !== 'errors') console.log(`note: ${tc.id} is an error: ${tc.expr} → ${tc.expect.error.message}`);
    if (before.has(tc.id) && before.get(tc.id) !== now) console.log(`changed: ${tc.id}: ${before.get(tc.id)} → ${now}`);
  }
  write(path, pinned);
  return pinned.length;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--file') {
    const name = (args[1] ?? '').replace(/\.jsonl$/, '');
    const path = join(here, `${name}.jsonl`);
    const cases = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    console.log(`${name}.jsonl: ${pinCases(name, cases)} cases`);
    return;
  }
  const ids = new Set();
  let total = 0;
  for (const name of TOPICS) {
    const { default: cases } = await import(join(here, 'gen', `${name}.mjs`));
    for (const tc of cases) {
      if (ids.has(tc.id)) throw new Error(`the id ${tc.id} is used twice`);
      ids.add(tc.id);
    }
    const count = pinCases(name, cases);
    total += count;
    console.log(`${name}.jsonl: ${count} cases`);
  }
  console.log(`differential corpus: ${total} cases`);
  const { default: refusals } = await import(join(here, 'gen', 'refusals.mjs'));
  let refused = 0;
  for (const [file, cases] of Object.entries(refusals)) {
    for (const tc of cases) {
      if (ids.has(tc.id)) throw new Error(`the id ${tc.id} is used twice`);
      ids.add(tc.id);
    }
    write(join(here, 'refusals', `${file}.jsonl`), cases);
    refused += cases.length;
    console.log(`refusals/${file}.jsonl: ${cases.length} cases`);
  }
  console.log(`refusal corpus: ${refused} cases`);
}

await main();
