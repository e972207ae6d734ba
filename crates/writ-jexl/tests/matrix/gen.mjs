// Pins the Jexl operator matrix: `node crates/writ-jexl/tests/matrix/gen.mjs` (from anywhere)
// writes matrix.json beside this file; `--check` writes nothing and exits 1 if a re-pin would
// change it. tests/matrix.rs runs every cell through writ-jexl.
//
// Every binary operator of Jexl 2.3 is applied to every ordered pair of OPERANDS, and `!`, `-`
// and the ternary's test to every operand, in jexl 2.3.0 itself (the copy in oracle/node_modules
// that `node oracle/run.mjs --lang jexl` runs). The answers are written in a typed form that
// JSON text would lose: `-0`, `NaN` and the infinities, `undefined` apart from `null`.
//
// matrix.json: `operands` (Jexl source), `context` (what the names among them read), `binary`
// and `unary` (operators, an operand written as `%`), `answers` (every distinct answer once) and
// `cells` (per operator, one index into `answers` per operand or ordered pair, left operand
// major).

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../oracle/package.json'));
const { Jexl } = require('jexl');
const version = require('jexl/package.json').version;
if (version !== '2.3.0') throw new Error(`oracle has jexl ${version}, not 2.3.0`);

// One of each kind of operand: numbers (zeros, integers, fractions, and NaN and infinities,
// which only arithmetic produces), strings (empty, numeric, ordered, non-ASCII), booleans,
// null, a missing name, arrays and objects written inline (a fresh value each time) and read
// from the context (the same value on both sides).
const OPERANDS = [
  '0', '-0', '1', '2.5', '(0/0)', '(1/0)', '(-1/0)',
  '""', '"0"', '"1"', '"10"', '"9"', '"a"', '"b"', '"é"', '" "',
  'true', 'false', 'null', 'missing',
  '[]', '[1]', '[1,2]', '["a"]', '{}', '{a:1}',
  'arr', 'obj', 'one', 'emptyArr',
];
const CONTEXT = { arr: [1, 2], obj: { a: 1 }, one: [1], emptyArr: [] };

const BINARY = ['+', '-', '*', '/', '//', '%', '^', '==', '!=', '<', '<=', '>', '>=', '&&', '||', 'in'];
const UNARY = ['!%', '-%', '% ? "T" : "F"', '!!%'];

// jexl-js's messages and writ's code for each (as in tests/corpus/gen.mjs).
const CODES = [
  [/^Invalid expression token: /, 'jexl-syntax'],
  [/^Token .* unexpected in expression: /, 'jexl-syntax'],
  [/^Unexpected end of expression: /, 'jexl-syntax'],
  [/^Cannot read properties of (undefined|null) /, 'jexl-runtime'],
];

function encode(value) {
  if (value === undefined) return 'u';
  if (value === null) return 'z';
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? 'n:-0' : `n:${String(value)}`;
    case 'boolean':
      return `b:${value}`;
    case 'string':
      return `s:${JSON.stringify(value)}`;
    case 'object':
      return `${Array.isArray(value) ? 'a' : 'o'}:${JSON.stringify(value)}`;
    default:
      throw new Error(`unexpected answer ${String(value)}`);
  }
}

function answer(jexl, source) {
  try {
    return encode(jexl.evalSync(source, structuredClone(CONTEXT)));
  } catch (err) {
    const found = CODES.find(([pattern]) => pattern.test(err.message));
    if (!found) throw new Error(`${source}: no code for ${err.message}`);
    return `e:${found[1]}`;
  }
}

const jexl = new Jexl();
const answers = [];
const index = new Map();
const intern = (text) => {
  if (!index.has(text)) {
    index.set(text, answers.length);
    answers.push(text);
  }
  return index.get(text);
};
const cells = {};
for (const op of BINARY) {
  cells[op] = [];
  for (const left of OPERANDS) {
    for (const right of OPERANDS) cells[op].push(intern(answer(jexl, `${left} ${op} ${right}`)));
  }
}
for (const op of UNARY) {
  cells[op] = OPERANDS.map((operand) => intern(answer(jexl, op.replace('%', operand))));
}

// One line per operator, so a re-pin's diff names the operators that changed.
const lines = [
  '{',
  `"operands": ${JSON.stringify(OPERANDS)},`,
  `"context": ${JSON.stringify(CONTEXT)},`,
  `"binary": ${JSON.stringify(BINARY)},`,
  `"unary": ${JSON.stringify(UNARY)},`,
  `"answers": ${JSON.stringify(answers)},`,
  '"cells": {',
  Object.entries(cells)
    .map(([op, row]) => `${JSON.stringify(op)}: ${JSON.stringify(row)}`)
    .join(',\n'),
  '}',
  '}',
];
const text = `${lines.join('\n')}\n`;
const target = join(here, 'matrix.json');
const total = Object.values(cells).reduce((sum, row) => sum + row.length, 0);
if (process.argv.includes('--check')) {
  let old = '';
  try {
    old = readFileSync(target, 'utf8');
  } catch {}
  if (old !== text) {
    console.error('matrix.json differs from what jexl 2.3.0 answers: re-pin it');
    process.exit(1);
  }
  console.log(`matrix.json is current (${total} cells)`);
} else {
  writeFileSync(target, text);
  console.log(`pinned ${total} cells, ${answers.length} distinct answers`);
}
