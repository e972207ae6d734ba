// JSON.parse and JSON.stringify: every value kind, escapes, indentation (numbers, strings, the cap
// of ten), nesting, key order, and (in errors.jsonl) the texts JSON.parse refuses.
import { topic } from './lib.mjs';

const t = topic('json', {
  o: { b: 1, a: [1, 'two', null, true, { c: {} }], e: [], s: 'q"\\/\n' }, xs: [1, [2, [3]]], text: '{"k": [1, 2, {"z": null}]}',
  ctrl: '\u0000\u0001\u001f\u007f\b\f\n\r\t', un: 'é😀\u2028\u2029', lone: '\uD800x\uDC00', nil: null,
});

t.g('stringify', [
  'JSON.stringify(1)', 'JSON.stringify(-0)', 'JSON.stringify(1e21)', 'JSON.stringify(1e-7)', 'JSON.stringify(NaN)', 'JSON.stringify(Infinity)',
  'JSON.stringify("abc")', 'JSON.stringify("")', 'JSON.stringify(true)', 'JSON.stringify(null)', 'JSON.stringify(undefined)', 'JSON.stringify()',
  'JSON.stringify([])', 'JSON.stringify({})', 'JSON.stringify(o)', 'JSON.stringify(xs)', 'JSON.stringify([undefined, NaN, -Infinity])',
  'JSON.stringify({ u: undefined, n: null, x: 1 })', 'JSON.stringify(ctrl)', 'JSON.stringify(un)', 'JSON.stringify(lone)', 'JSON.stringify("\\uDBFF\\uDFFF")',
  'JSON.stringify("\\\\ \\" /")', 'JSON.stringify({ "key\\n": 1, "é": 2, "": 3 })', 'JSON.stringify({ b: 1, 2: 2, a: 3, 1: 4 })',
  'JSON.stringify([[[]], {}, [{}]])', 'JSON.stringify(nil)', 'JSON.stringify({ a: [undefined] })', 'JSON.stringify(0.1 + 0.2)',
  'JSON.stringify(5e-324)', 'JSON.stringify(-1.5e300)', 'JSON.stringify(2 ** 53 + 2)', 'JSON.stringify({ ["__proto__"]: 1 })',
  'JSON.stringify(o, null)', 'JSON.stringify(o, undefined)', 'JSON.stringify(o.a)', 'JSON.stringify("\\u007f\\u0080\\u00ff")',
]);
t.g('indent', [
  'JSON.stringify(o, null, 2)', 'JSON.stringify(o, null, 0)', 'JSON.stringify(o, null, -1)', 'JSON.stringify(o, null, 1.9)', 'JSON.stringify(o, null, 20)',
  'JSON.stringify(o, null, "\\t")', 'JSON.stringify(o, null, "--")', 'JSON.stringify(o, null, "")', 'JSON.stringify(o, null, "0123456789abc")',
  'JSON.stringify(xs, null, 1)', 'JSON.stringify([], null, 2)', 'JSON.stringify({}, null, 2)', 'JSON.stringify([[], {}], null, 2)',
  'JSON.stringify(1, null, 2)', 'JSON.stringify("s", null, 2)', 'JSON.stringify({ a: { b: { c: [1] } } }, null, 4)', 'JSON.stringify(o, null, "😀")',
  'JSON.stringify(o, null, undefined)', 'JSON.stringify(o, null, null)', 'JSON.stringify(o, null, true)', 'JSON.stringify([1, [2]], undefined, " ")',
  'JSON.stringify({ u: undefined, v: 1 }, null, 2)', 'JSON.stringify([undefined], null, 2)',
]);
t.g('parse', [
  'JSON.parse("1")', 'JSON.parse("-0") === 0', 'Object.is(JSON.parse("-0"), -0)', 'JSON.parse("1e400") > 1e308', 'JSON.parse("1.5e-3")', 'JSON.parse("\\"s\\"")',
  'JSON.parse("true")', 'JSON.parse("null")', 'JSON.parse("[]")', 'JSON.parse("{}")', 'JSON.parse(text)', 'JSON.parse(text).k[2]', 'JSON.parse("  \\n\\t[1 , 2]\\r ")',
  'JSON.parse("\\"\\\\u00e9\\\\ud83d\\\\ude00\\"")', 'JSON.parse("\\"\\\\ud800\\"")', 'JSON.parse("\\"\\\\b\\\\f\\\\n\\\\r\\\\t\\\\/\\\\\\\\\\\\\\"\\"")',
  'JSON.parse("{\\"a\\":1,\\"b\\":2,\\"a\\":3}")', 'JSON.parse("{\\"b\\":1,\\"2\\":1,\\"1\\":1}")', 'Object.keys(JSON.parse("{\\"b\\":1,\\"2\\":1,\\"1\\":1}"))',
  'JSON.parse("{\\"__proto__\\": 1}")', 'Object.keys(JSON.parse("{\\"__proto__\\": {\\"x\\": 1}}"))', 'JSON.parse("123456789012345678901234567890")',
  'JSON.parse("0.1")', 'JSON.parse("1E2")', 'JSON.parse("-1e-2")', 'JSON.parse(JSON.stringify(o))', 'JSON.parse(JSON.stringify(o, null, 2))',
  'JSON.parse("[[[[1]]]]")[0][0][0][0]', 'JSON.parse(5)', 'JSON.parse(true)', 'JSON.parse(null)', 'JSON.parse("\\"\\u2028\\"")', 'JSON.parse(" \\"x\\" ")',
  'JSON.parse("[1, \\"a\\", null, {\\"k\\": [true]}]")', 'JSON.parse("{\\"\\": 0}")', 'JSON.parse(["[1]"])', 'JSON.parse("9007199254740993")',
]);
t.g('roundtrip', [
  'JSON.stringify(JSON.parse(text))', 'JSON.parse(JSON.stringify(un)) === un', 'JSON.parse(JSON.stringify(lone)) === lone', 'JSON.stringify(JSON.parse("{\\"a\\":[1,{\\"b\\":2}]}"), null, 1)',
  'JSON.parse(JSON.stringify(ctrl)) === ctrl', 'JSON.stringify(JSON.parse("[1e21, 1e-7, -0]"))',
]);

export default t.cases;
