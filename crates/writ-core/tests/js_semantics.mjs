// Pins writ_core::js against node: `node crates/writ-core/tests/js_semantics.mjs` (from anywhere)
// rewrites js_semantics.jsonl beside it.
//
// Each line is one case: `op` names the function of writ_core::js it checks, `data` its inputs,
// `expr` a JavaScript expression over `data`'s names (run exactly as oracle/run.mjs --lang js
// runs one, so the Rust test can re-check the file against live node), and `expect` what node
// answered. Numbers come back as text (`String(n)`, `-0` spelled out), so every double survives
// JSON. The cases include every place where the engines' old copies disagreed.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const cases = [];
const add = (op, data, expr) => cases.push({ op, data, expr });
const numberText = (call) => `((n) => Object.is(n, -0) ? "-0" : String(n))(${call})`;

// White space: every code unit `trim` removes, and every one `Number` skips around a digit.
add('space-units', {}, 'Array.from({ length: 65536 }, (_, u) => u).filter((u) => String.fromCharCode(u).trim() === "")');
add('space-units', {}, 'Array.from({ length: 65536 }, (_, u) => u).filter((u) => Number(String.fromCharCode(u) + "7" + String.fromCharCode(u)) === 7)');

// StringToNumber.
const toNumber = [
  '', ' ', '12', ' 12 ', '\t\n\v\f\r 12', '1.', '.5', '.', '+.5', '-.5e1', '1e', 'e5', '1e+', '1e-7', '-1e3', '+1', '-0',
  '+0', '00', '007', '0.0000001', '1_0', '1,5', 'Infinity', '-Infinity', '+Infinity', 'infinity', 'INFINITY', 'inf',
  'NaN', 'nan', '1e400', '-1e400', '1e-400', '4.9e-324', '2.4703282292062328e-324', '2.4703282292062327e-324',
  '1.7976931348623158e308', '1.7976931348623159e308', '0x', '0x1F', '0X1f', '0xg', '-0x1', '+0x1', ' 0x10 ', '0b', '0b101',
  '0B2', '0o17', '0O8', '0o', '0x1fffffffffffff', '0x1fffffffffffff1', '0x20000000000001', '0x20000000000003',
  '0x20000000000001000000001', '0x' + 'f'.repeat(300), '0x' + 'f'.repeat(256), '0b' + '1'.repeat(54),
  '0b1' + '0'.repeat(52) + '1', '0b1' + '0'.repeat(52) + '11', '0o' + '7'.repeat(20), '0o1000000000000000001', '0x1p3',
  '9007199254740993', '9007199254740993.000000000000000000001', '123456789012345678901234567890',
  '0.' + '0'.repeat(330) + '1', '1' + '0'.repeat(400), '2.' + '5'.repeat(100),
  '17976931348623157' + '0'.repeat(292), '\u00a012\u00a0', '\u2028 12 \u2029', '\ufeff12', '\u180e12', '12\u180e',
  '\u200b12', '\u008512', '\u300012\u3000', '\u16801\u2000', '\u202f1e2\u205f', '１２', '١', '12abc', '1 2', '--1', '+-1',
  '1e1.5', '4.49e1e+21', 'true', 'null', '[]', '0.1', '0.30000000000000004', '5e-324', '1.5e-323',
];
for (const s of toNumber) add('string-to-number', { s }, numberText('Number(s)'));

// parseInt, with ToInt32 of the radix already taken (0 means none).
const parseInts = [
  ['12abc', 0], ['  -0500', 0], ['+0530', 0], ['0x1A', 0], ['0x1A', 16], ['0x1A', 10], ['0X', 0], ['0x', 16], ['1e3', 0],
  ['abc', 0], ['', 0], ['-', 0], ['-0', 0], ['\u00a0\ufeff42', 0], ['\u180e42', 0], ['101', 2], ['2', 2], ['z', 36],
  ['Z', 36], ['10', 37], ['10', 1], ['10', -1], ['0x10', 8], ['077', 8], ['9007199254740993', 0],
  ['123456789012345678901234567890', 0], ['1'.repeat(400), 10], ['0'.repeat(400) + '5', 10],
  ['0x1fffffffffffff1', 0], ['1fffffffffffff1', 16], ['1'.repeat(60), 2], ['1' + '0'.repeat(52) + '1', 2],
  ['zzzzzzzzzzzzzzzzzz', 36], ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 36], ['7'.repeat(30), 8], ['2'.repeat(40), 3],
  ['helloworld', 36], ['f'.repeat(300), 16], ['v'.repeat(250), 32], ['1'.repeat(25), 7], ['12.5', 0], ['-12.5e3', 0],
];
for (const [s, radix] of parseInts) add('parse-int', { s, radix }, numberText('parseInt(s, radix)'));

// Array indices: a key is one when writing it on an array makes the array longer.
const keys = [
  '0', '1', '17', '01', '00', '-0', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '4294967294', '4294967295', '4294967296',
  '9999999999', '10000000000', '99999999999', '', 'a', '0x1', '١', '2147483648',
];
for (const k of keys) {
  add('array-index', { k }, '(() => { const a = []; a[k] = 1; return a.length === 0 ? null : a.length - 1; })()');
}

// Number.prototype.toFixed, toExponential, toPrecision and toString(radix); `x` is the
// double's shortest text.
const xs = [
  '0', '-0', '1', '-1', '1.005', '1.25', '1.35', '2.5', '-1.5', '-2.5', '0.5', '-0.0001', '0.1', '0.000001', '1e-7', '123.456',
  '1e20', '1e21', '-1e21', '999999999999999900000', '1.7976931348623157e308', '5e-324', '-5e-324', '9007199254740993',
  '0.30000000000000004', '4.35', '1.45', '8.345', '1234.5678', 'NaN', 'Infinity', '-Infinity', '255.5', '-255.5',
  '0.000001234', '9.96', '123456', '1e-10', '2e-7', '6.02214076e23',
];
for (const x of xs) {
  for (const f of [0, 1, 2, 3, 10, 20, 100]) add('to-fixed', { x, f }, 'Number(x).toFixed(f)');
  for (const f of [null, 0, 1, 2, 5, 20, 100]) {
    add('to-exponential', { x, f }, 'f === null ? Number(x).toExponential() : Number(x).toExponential(f)');
  }
  for (const p of [1, 2, 3, 7, 21, 100]) add('to-precision', { x, p }, 'Number(x).toPrecision(p)');
}
const radixXs = [
  ...xs, '0.1', '0.2', '0.3', '1e300', '2e21', '1.5e-300', '4294967296.5', '0.000001', '12345.6789', '-0.5',
  '9007199254740994', '36.036', '1.1', '3.14159', '1e-7', '123.456e10',
];
for (const x of radixXs) {
  for (const radix of [2, 3, 7, 8, 10, 16, 32, 36]) add('to-radix', { x, radix }, 'Number(x).toString(radix)');
}

// IsLooselyEqual over JSON values and undefined (objects and arrays as the ordinary ToPrimitive
// makes them).
const values = [
  null, 0, -0, 1, 2, 0.5, 4294967296, '', ' ', '0', '1', '1.0', '0x1', ' \u2028 1 \ufeff', '\u180e1', 'a', '[object Object]',
  '1,2', 'true', 'false', 'null', true, false, [], [0], [1], [1, 2], [[]], [null], [[1]], {}, { a: 1 },
  '0x1fffffffffffff1', 144115188075855860, 144115188075855870, 'Infinity', '-Infinity',
];
for (const a of values) {
  for (const b of values) add('loose-equals', { a, b }, 'a == b');
}
// A name missing from `data` is undefined.
for (const b of [null, 0, '', 'undefined', [], {}, false]) add('loose-equals', { b }, '((a) => a == b)(undefined)');
add('loose-equals', {}, '((a, b) => a == b)(undefined, undefined)');

// JSON.stringify's quoting, well-formed: lone surrogates escaped.
const strings = [
  '', 'plain', 'a"b', 'a\\b', '\b\f\n\r\t', '\u0000\u0001\u001f\u007f', '\u2028\u2029', 'é', '日本', '😀', '\ud800',
  '\udc00', 'a\ud800b', '\udc00\ud800', '\ud83d\ude00\ud83d', 'x'.repeat(40) + '"' + 'y'.repeat(3), '</script>', '\u00ff\u0100',
  '\ufeff', 'tab\there', 'a\u0085b',
];
for (const s of strings) add('quote', { s }, 'JSON.stringify(s)');

const lines = [];
for (const tc of cases) {
  // The data travels as JSON text, as the oracle's does: no two inputs are the same object.
  const data = JSON.parse(JSON.stringify(tc.data));
  const names = Object.keys(data);
  const fn = new Function(...names, '"use strict"; return (' + tc.expr + '\n);');
  const expect = fn(...names.map((name) => data[name]));
  lines.push(JSON.stringify({ ...tc, expect }));
}
writeFileSync(join(here, 'js_semantics.jsonl'), lines.join('\n') + '\n');
console.log(`${lines.length} cases`);
