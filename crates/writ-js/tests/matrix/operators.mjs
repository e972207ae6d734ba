// Pins the operator matrix: `node crates/writ-js/tests/matrix/operators.mjs` (from anywhere)
// rewrites operators.json beside it with node's answer for every operator of the subset over
// every pair of operand kinds, read by ../matrix.rs.
//
// operators.json holds "operands" (source texts, each written in parentheses when used) and,
// per operator, the answers in operand order: for a binary operator, row by row (left operand
// outer), for a unary one, one per operand. An answer is written so that values JSON would
// merge stay apart: a number as JavaScript writes it but -0 as "-0" (NaN, Infinity as named),
// a string JSON-quoted, an array or object as its JSON text, `undefined` as "undefined", and a
// thrown error as its constructor's name followed by "!" ("TypeError!").
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const operands = [
  '0', '-0', '1', '2.5', 'NaN', 'Infinity', '-Infinity',
  '""', '"0"', '"1"', '"10"', '"9"', '"a"', '"b"', '"é"', '" 1 "',
  'true', 'false', 'null', 'undefined',
  '[]', '[1]', '[1, 2]', '["a"]',
  '{}', '{ "a": 1 }', '{ "toString": 1 }',
];
const binary = ['+', '-', '*', '/', '%', '**', '==', '!=', '===', '!==', '<', '<=', '>', '>=', '&&', '||', '??'];
const unary = ['!', '-', '+', 'typeof'];

export function write(value) {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return String(value);
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

function answer(source) {
  try {
    return write(new Function(`return (${source});`)());
  } catch (error) {
    return `${error.constructor.name}!`;
  }
}

const out = { operands, binary: {}, unary: {} };
for (const op of binary) {
  out.binary[op] = operands.flatMap((a) => operands.map((b) => answer(`(${a}) ${op} (${b})`)));
}
for (const op of unary) {
  out.unary[op] = operands.map((a) => answer(`${op} (${a})`));
}
const lines = [
  '{',
  `"operands": ${JSON.stringify(operands)},`,
  '"binary": {',
  binary.map((op) => `${JSON.stringify(op)}: ${JSON.stringify(out.binary[op])}`).join(',\n'),
  '},',
  '"unary": {',
  unary.map((op) => `${JSON.stringify(op)}: ${JSON.stringify(out.unary[op])}`).join(',\n'),
  '}',
  '}',
];
writeFileSync(join(here, 'operators.json'), lines.join('\n') + '\n');
const count = binary.length * operands.length ** 2 + unary.length * operands.length;
console.log(`operators.json: ${count} answers`);
