// Writes matrix.json: every operator of JSONata (binary and unary) over every kind of operand,
// answered by jsonata 2.2.2 through the node oracle (oracle/run.mjs), for tests/operators.rs.
//
// Usage (from the repository root, after `npm ci --prefix oracle`):
//   node crates/writ-jsonata/tests/operators/gen.mjs
//
// The file holds the operands (JSONata source), the operators, and per operator one answer per
// case, left operand major: "=<JSON>" for a value, "u" for no value, "!<code>" for an error.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..', '..');

// Each kind of operand an operator can meet. `$x` is an unbound variable and `nothing` a path
// that reaches nothing (the input is undefined): both are "no value".
const operands = [
  '0', '-0', '1', '2.5', '-7', '1e300', '9007199254740993',
  '""', '"0"', '"10"', '"9"', '"a"', '"b"', '"é"', '"1e3"',
  'true', 'false',
  'null',
  '$x', 'nothing',
  '[]', '[1]', '[1,2]', '["a"]', '[[]]',
  '{}', '{"a":1}',
  '$string',
];
const binary = ['+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', '&', 'and', 'or', 'in'];
const unary = ['-'];

// The expression of a case, as tests/operators.rs builds it too.
const binaryExpr = (l, op, r) => `(${l}) ${op} (${r})`;
const unaryExpr = (op, v) => `${op}(${v})`;

const cases = [];
for (const op of binary) {
  for (const l of operands) {
    for (const r of operands) cases.push({ op, expr: binaryExpr(l, op, r) });
  }
}
for (const op of unary) {
  for (const v of operands) cases.push({ op: `unary${op}`, expr: unaryExpr(op, v) });
}

const input = cases.map((c, i) => JSON.stringify({ id: String(i), expr: c.expr })).join('\n') + '\n';
const output = execFileSync('node', [join(root, 'oracle', 'run.mjs'), '--lang', 'jsonata', '-'], {
  input,
  maxBuffer: 1 << 28,
  encoding: 'utf8',
});
const lines = output.trimEnd().split('\n');
if (lines.length !== cases.length) throw new Error(`${lines.length} answers for ${cases.length} cases`);

const answers = {};
lines.forEach((line, i) => {
  const envelope = JSON.parse(line);
  let answer;
  if (!envelope.ok) answer = `!${envelope.error.code}`;
  else if (envelope.undefined) answer = 'u';
  else answer = `=${JSON.stringify(envelope.value)}`;
  (answers[cases[i].op] ??= []).push(answer);
});

const matrix = { jsonata: '2.2.2', operands, binary, unary, answers };
const text = '{\n' + Object.entries(matrix)
  .map(([key, value]) => {
    if (key !== 'answers') return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    const rows = Object.entries(value).map(([op, list]) => `    ${JSON.stringify(op)}: ${JSON.stringify(list)}`);
    return `  "answers": {\n${rows.join(',\n')}\n  }`;
  })
  .join(',\n') + '\n}\n';
writeFileSync(join(here, 'matrix.json'), text);
console.log(`${cases.length} cases written to matrix.json`);
