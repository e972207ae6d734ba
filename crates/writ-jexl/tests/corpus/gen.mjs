// Builds and pins the Jexl differential corpus: `node crates/writ-jexl/tests/corpus/gen.mjs`
// (from anywhere). See README.md beside this file.
//
// - cases/<topic>.mjs lists a topic's expressions by group; data/<name>.json holds the shared
//   documents they read. Each case becomes one line of <topic>.jsonl: id, expr, the context
//   ("doc": a document's name, or "data" inline for small ones), "transforms" and "limits" when
//   it has them, and "expect".
// - A value is pinned as jexl 2.3.0 answers it, through oracle/run.mjs --lang jexl (each file run
//   twice; both runs must agree). jexl-js has no error codes (the oracle says `jexl-error`), so an
//   error is pinned with writ's code: the case's own `code`, or else the code the table below
//   gives for jexl-js's message. Every case of limits.mjs is one that jexl-js evaluates, and
//   its `code`, if it has one, is the error with which a writ bound stops it; everywhere else a
//   `code` must be an error in jexl-js too.
// - It prints every case whose expectation changed since the last pin (`changed:`), the errors
//   outside errors.jsonl and limits.jsonl that their case does not declare with a `code`
//   (`note:`), and the cases that answer undefined (`undefined:`), so that a re-pin can be read
//   before it is committed.
//
// `node gen.mjs topic…` pins only the topics named (ids are then checked unique within them).
// `node gen.mjs --check` pins nothing: it reports what a re-pin would change and exits 1 if
// anything would.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, '../../../../oracle/run.mjs');

export const TOPICS = [
  'arithmetic',
  'equality',
  'logic',
  'members',
  'filters',
  'membership',
  'strings',
  'unicode',
  'literals',
  'transforms',
  'predicates',
  'lenient',
  'errors',
  'limits',
];

// Topics whose cases are expected to be errors.
const ERROR_TOPICS = new Set(['errors', 'limits']);

const documents = new Map();

function loadDocument(name) {
  if (!documents.has(name)) {
    documents.set(name, JSON.parse(readFileSync(join(here, 'data', `${name}.json`), 'utf8')));
  }
  return documents.get(name);
}

// jexl-js's error messages, in the order they are tried, and writ's code for each.
const CODES = [
  [/^Invalid expression token: /, 'jexl-syntax'],
  [/^Token .* unexpected in expression: /, 'jexl-syntax'],
  [/^Unexpected end of expression: /, 'jexl-syntax'],
  // An empty expression (or `()`) parses to nothing, and jexl-js fails reading the missing tree.
  [/^Cannot read properties of null \(reading 'type'\)$/, 'jexl-syntax'],
  [/^Transform .* is not defined\.$/, 'jexl-unknown-transform'],
  [/^Jexl Function .* is not defined\.$/, 'jexl-unknown-function'],
  // The oracle's standard transforms throw these.
  [/^join expects an array$/, 'jexl-transform'],
  [/^length of null or undefined$/, 'jexl-transform'],
  [/^Cannot read properties of (undefined|null) /, 'jexl-runtime'],
];

// True when `source` writes `===` or `!==` outside its string literals: writ's linter names the
// mistake, so the parse error is `jexl-dialect`.
function strictEquality(source) {
  let quote = null;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if ((c === '=' || c === '!') && source.startsWith('==', i + 1)) {
      return true;
    }
  }
  return false;
}

function codeFor(tc, thrown) {
  // An error thrown inside a filter reaches the caller wrapped: "Error: TypeError: …".
  const message = thrown.replace(/^(Error: )*(TypeError: )?/, '');
  for (const [pattern, code] of CODES) {
    if (pattern.test(message)) {
      if (code === 'jexl-syntax' && strictEquality(tc.expr)) return 'jexl-dialect';
      return code;
    }
  }
  throw new Error(`${tc.id}: no writ code for jexl-js's error ${JSON.stringify(thrown)} (give the case a "code")`);
}

// A topic entry is [group, expr] or [group, expr, options]; options may hold `doc` (a document
// by name), `data` (an inline context), `noData: true` (no context), `transforms` (names),
// `limits` (writ's limit names: steps, ms, maxStringLength, maxArrayLength, maxDepth) and `code`
// (writ's error code). A topic's `groupOptions` gives defaults for every entry of a group.
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
    else if (!options.noData) {
      const doc = options.doc ?? spec.doc;
      if (doc === undefined) throw new Error(`${tc.id}: no context (give "doc", "data" or "noData")`);
      loadDocument(doc);
      tc.doc = doc;
    }
    if (options.transforms !== undefined) tc.transforms = options.transforms;
    if (options.limits !== undefined) tc.limits = options.limits;
    cases.push({ tc, code: options.code });
  }
  return cases;
}

// The request the oracle reads: the document inline as "data".
function request(tc) {
  const line = { expr: tc.expr };
  if (tc.doc !== undefined) line.data = loadDocument(tc.doc);
  else if (Object.hasOwn(tc, 'data')) line.data = tc.data;
  if (tc.transforms !== undefined) line.transforms = tc.transforms;
  return JSON.stringify(line);
}

function runOracle(lines) {
  const out = execFileSync(process.execPath, [oracle, '--lang', 'jexl', '-'], {
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
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

// The expectation of one case from jexl-js's envelope.
function expectation(topic, tc, code, envelope) {
  const answer = JSON.parse(envelope);
  if (topic === 'limits') {
    // Only writ's bounds can stop a case here: jexl-js, which has none, must answer it.
    if (!answer.ok) throw new Error(`${tc.id}: jexl-js fails (${answer.error.message}), so no writ limit is what stops it`);
    return code === undefined ? answer : { ok: false, error: { code } };
  }
  if (code === 'budget-exceeded') throw new Error(`${tc.id}: a case that only a writ limit stops belongs in limits.mjs`);
  if (answer.ok) {
    if (code !== undefined) throw new Error(`${tc.id}: expects ${code}, but jexl-js answers ${short(envelope)}`);
    return answer;
  }
  // The oracle refuses a transform outside the standard set before it evaluates anything.
  if (answer.error.code === 'unknown-transform') return { ok: false, error: { code: code ?? 'jexl-unknown-transform' } };
  if (answer.error.code !== 'jexl-error') throw new Error(`${tc.id}: the oracle refused the case: ${answer.error.message}`);
  return { ok: false, error: { code: code ?? codeFor(tc, answer.error.message) } };
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const only = args.filter((arg) => arg !== '--check');
  for (const topic of only) if (!TOPICS.includes(topic)) throw new Error(`no topic ${topic} (topics: ${TOPICS.join(', ')})`);
  const ids = new Set();
  let total = 0;
  let changes = 0;
  for (const topic of only.length > 0 ? only : TOPICS) {
    const { default: spec } = await import(join(here, 'cases', `${topic}.mjs`));
    const cases = expand(topic, spec);
    for (const { tc } of cases) {
      if (ids.has(tc.id)) throw new Error(`the id ${tc.id} is used twice`);
      ids.add(tc.id);
    }
    const requests = cases.map(({ tc }) => request(tc));
    const first = runOracle(requests);
    const second = runOracle(requests);
    first.forEach((envelope, i) => {
      if (envelope !== second[i]) throw new Error(`${cases[i].tc.id} is not deterministic: ${short(envelope)}, then ${short(second[i])}`);
    });
    const path = join(here, `${topic}.jsonl`);
    const before = previous(path);
    const pinned = cases.map(({ tc, code }, i) => ({ ...tc, expect: expectation(topic, tc, code, first[i]) }));
    for (const [i, tc] of pinned.entries()) {
      const now = JSON.stringify(tc.expect);
      const declared = cases[i].code !== undefined;
      if (!ERROR_TOPICS.has(topic) && !declared && !tc.expect.ok) console.log(`note: ${tc.id} is an error: ${tc.expr} → ${tc.expect.error.code}`);
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
