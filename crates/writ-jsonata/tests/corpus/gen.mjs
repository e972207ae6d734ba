// Builds and pins the JSONata differential corpus: `node crates/writ-jsonata/tests/corpus/gen.mjs`
// (from anywhere). See README.md beside this file.
//
// - cases/<topic>.mjs lists a topic's expressions by group; data/<name>.json holds the documents
//   they read. Each case becomes one self-contained line of <topic>.jsonl: id, expr, the
//   document inline as "data", "bindings" when it has some, and "expect".
// - "expect" is the envelope that jsonata 2.2.2 gives, through oracle/run.mjs --lang jsonata
//   (TZ=UTC, exactly as the Rust test's live check runs it). Every file is run twice, and once
//   more with the clock set to 2037 (clock-shift.mjs), and must answer the same each time, so a
//   case whose answer depends on random numbers or on today's date cannot slip in.
// - It prints every case whose answer changed since the last pin (`changed:`), every error
//   outside errors.jsonl and every success inside it (`note:`), and the cases that answer
//   "undefined" (`undefined:`), so a re-pin can be read before it is committed.
//
// `node gen.mjs --check` pins nothing: it only reports what a re-pin would change, and exits 1 if
// anything would.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, '../../../../oracle/run.mjs');

export const TOPICS = ['orders', 'invoices', 'org', 'events', 'catalog', 'text', 'functional', 'errors'];

const documents = new Map();

function loadDocument(name) {
  if (!documents.has(name)) {
    documents.set(name, JSON.parse(readFileSync(join(here, 'data', `${name}.json`), 'utf8')));
  }
  return documents.get(name);
}

// A topic entry is [group, expr] or [group, expr, options]; options may hold `bindings`, `doc`
// (another document by name), `data` (an inline input) or `noData: true` (no input at all).
// A topic's `groupOptions` gives defaults for every entry of a group.
function expand(topic, spec) {
  const counters = new Map();
  const cases = [];
  for (const entry of spec.cases) {
    const [group, expr, own = {}] = entry;
    const options = { ...(spec.groupOptions?.[group] ?? {}), ...own };
    if (typeof group !== 'string' || typeof expr !== 'string') throw new Error(`${topic}: bad entry ${JSON.stringify(entry)}`);
    const n = (counters.get(group) ?? 0) + 1;
    counters.set(group, n);
    const tc = { id: `${spec.prefix}-${group}-${n}`, expr };
    if (Object.hasOwn(options, 'data')) tc.data = options.data;
    else if (!options.noData) tc.data = loadDocument(options.doc ?? spec.doc);
    if (options.bindings !== undefined) tc.bindings = options.bindings;
    cases.push(tc);
  }
  return cases;
}

// With `shifted`, node runs with clock-shift.mjs preloaded: the clock reads a fixed moment.
function runOracle(lines, shifted = false) {
  const env = { ...process.env, TZ: 'UTC' };
  if (shifted) env.NODE_OPTIONS = `--import=${pathToFileURL(join(here, 'clock-shift.mjs'))}`;
  const out = execFileSync(process.execPath, [oracle, '--lang', 'jsonata', '-'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 28,
  });
  const envelopes = out.split('\n').filter((line) => line !== '');
  if (envelopes.length !== lines.length) throw new Error(`the oracle answered ${envelopes.length} of ${lines.length} lines`);
  return envelopes;
}

function previous(path) {
  const map = new Map();
  if (!existsSync(path)) return map;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const tc = JSON.parse(line);
    map.set(tc.id, JSON.stringify(tc.expect));
  }
  return map;
}

function short(text) {
  return text.length > 160 ? text.slice(0, 160) + '…' : text;
}

async function main() {
  const check = process.argv.includes('--check');
  const ids = new Set();
  let total = 0;
  let changes = 0;
  for (const topic of TOPICS) {
    const { default: spec } = await import(join(here, 'cases', `${topic}.mjs`));
    const cases = expand(topic, spec);
    for (const tc of cases) {
      if (ids.has(tc.id)) throw new Error(`the id ${tc.id} is used twice`);
      ids.add(tc.id);
    }
    const requests = cases.map((tc) => JSON.stringify(tc));
    const first = runOracle(requests);
    const second = runOracle(requests);
    const shifted = runOracle(requests, true);
    const unstable = [];
    first.forEach((envelope, i) => {
      const { id, expr } = cases[i];
      if (envelope !== second[i]) unstable.push(`${id} is not deterministic: ${expr} → ${short(envelope)}, then ${short(second[i])}`);
      if (envelope !== shifted[i]) unstable.push(`${id} depends on today's date: ${expr} → ${short(envelope)}, in 2037 ${short(shifted[i])}`);
    });
    if (unstable.length > 0) throw new Error(`${topic}: unstable cases, nothing written:\n${unstable.join('\n')}`);
    const path = join(here, `${topic}.jsonl`);
    const before = previous(path);
    const pinned = cases.map((tc, i) => ({ ...tc, expect: JSON.parse(first[i]) }));
    for (const tc of pinned) {
      const now = JSON.stringify(tc.expect);
      if (topic !== 'errors' && !tc.expect.ok) console.log(`note: ${tc.id} is an error: ${tc.expr} → ${tc.expect.error.code} ${tc.expect.error.message}`);
      if (topic === 'errors' && tc.expect.ok) console.log(`note: ${tc.id} is not an error: ${tc.expr} → ${short(now)}`);
      if (tc.expect.undefined) console.log(`undefined: ${tc.id}: ${tc.expr}`);
      if (before.has(tc.id) && before.get(tc.id) !== now) {
        changes += 1;
        console.log(`changed: ${tc.id}: ${short(before.get(tc.id))} → ${short(now)}`);
      } else if (!before.has(tc.id)) {
        changes += 1;
      }
    }
    for (const id of before.keys()) {
      if (!ids.has(id)) {
        changes += 1;
        console.log(`removed: ${id}`);
      }
    }
    if (!check) writeFileSync(path, pinned.map((tc) => JSON.stringify(tc)).join('\n') + '\n');
    total += pinned.length;
    console.log(`${topic}.jsonl: ${pinned.length} cases`);
  }
  console.log(`corpus: ${total} cases`);
  if (check && changes > 0) {
    console.log(`--check: ${changes} cases would change`);
    process.exitCode = 1;
  }
}

await main();
