// Conversions: number to text across magnitudes, text to number, arrays and objects to text and
// number, truthiness, and the conversions built-ins apply to their arguments.
import { topic } from './lib.mjs';

const t = topic('co', {
  nested: [1, [2, [3, [4]]]], holes: [null, undefined, 0, ''], objs: [{ a: 1 }, { b: 2 }], mixed: [1, 'a', true, null],
  empty: [], one: [42], obj: { k: 'v' }, num: 12.5, str: ' 42 ',
});

t.g('numstr', [
  '1e21', '1e20', '123456789012345680000', '1e-6', '1e-7', '0.000001', '0.0000001', '1.5e-7', '-1e-7', '2 ** 53',
  '2 ** 64', '2 ** 70', '1.7976931348623157e308', '5e-324', '2.2250738585072014e-308', '0.1', '0.2 + 0.1', '1 / 3',
  '2 / 3', '100', '1e100', '123e-20', '-0', '123456.789', '0.5', '1.005', '4.35', '1.1', '9.95', '0.000123', '1234.5678e10',
  '98765432109876543210', '0.1 * 3', '3 * 1.1', '1e15 + 0.3', '1e16 + 1', '4503599627370497.5', '-123.456e-10',
  '2 ** -1074', '2 ** 1023', '1.2e-308', '25 / 7', '1e300 * 10', '9007199254740993', '0.30000000000000004',
  '123456789.12345678', '1e-5', '1.23e-5', '12345678901234567890e-30',
].map((e) => `String(${e})`));
t.g('strnum', [
  '""', '" "', '"\\n\\t\\r\\v\\f"', '"\\u00a0\\u2028\\u2029\\ufeff\\u3000 7 \\u1680"', '"\\u180e7"', '"12px"', '"0x1f"',
  '"0X1F"', '"0b11"', '"0B11"', '"0o17"', '"0O17"', '"0x"', '"0b2"', '"1e3"', '"1E3"', '"1e+3"', '"1e-3"', '"-1e-3"',
  '".5"', '"5."', '"-.5"', '"+.5"', '"."', '"e5"', '"5e"', '"Infinity"', '"-Infinity"', '"+Infinity"', '"INFINITY"',
  '"NaN"', '"1,000"', '"1 000"', '"١٢"', '"00012"', '"-0"', '"0.0000001"', '"123456789012345678901234567890"',
  '"1e400"', '"-1e400"', '"1e-400"', '"0x1fffffffffffff"', '"9007199254740993"', '"  -12.5e1  "', '"--1"', '"+-1"',
  '"1_000"', '"5 "', '" 5"', '"\\u20005"',
].map((e) => `String(Number(${e}))`));
// Radix literals past 2^53 round to the nearest double, ties to even (writ once multiplied
// and added digit by digit, which rounds at every step).
t.g('radixround', [
  'String(Number("0x1fffffffffffff1"))', 'String(+"0x20000000000001")', 'String(Number("0x20000000000003"))',
  'String(Number("0x20000000000001000000001"))', 'String(Number("0b" + "1".repeat(54)))',
  'String(Number("0o1000000000000000001"))', '"0x1fffffffffffff1" == 144115188075855860',
  '"0x1fffffffffffff1" == 144115188075855870', 'String(parseInt("1fffffffffffff1", 16))',
]);
t.g('negzero', ['Object.is(Number("-0"), -0)', 'Object.is(+"-0.0", -0)', 'Object.is(Number("-0e5"), -0)', 'Object.is(-"", -0)', 'Object.is(Number(" -0 "), -0)']);
t.g('arrstr', [
  'String(nested)', 'String(holes)', 'String(objs)', 'String(mixed)', 'String(empty)', 'String(one)', '"" + [[]]',
  '"" + [[], []]', '"" + [null]', '"" + [undefined]', '"" + [[null]]', 'String([1.5, -0, 1e21])', 'String([NaN])',
  'String([[1, 2], [3]])', 'String([obj])', 'String(obj)', 'String({})', '`${[1, [2, [3]]]}`', 'String(["a,b", "c"])',
]);
t.g('arrnum', [
  'Number(empty)', 'Number(one)', 'Number([" 7 "])', 'Number([[3]])', 'Number([null])', 'Number([undefined])',
  'String(Number([1, 2]))', 'String(Number(obj))', 'Number([true])', 'String(Number([true]))', 'Number(["0x10"])',
  'Number([""])', 'Number([[]])', 'one * 2', 'one - [2]', 'one / [2]', '[3] ** [2]', '[7] % [4]',
]);
t.g('truthy', [
  '!!0', '!!-0', '!!NaN', '!!""', '!!" "', '!!"0"', '!!"false"', '!!null', '!!undefined', '!!empty', '!!obj', '!!({})',
  '!!0.0000001', '!!-1', '!!Infinity', 'Boolean(holes[1])', 'Boolean(holes[3])', 'Boolean(mixed)',
]);
t.g('args', [
  '"abc".charAt("1")', '"abc".charAt(1.9)', '"abc".charAt(-0.5)', '"abc".charAt(NaN)', '"abc".charAt(null)',
  '"abc".charAt(true)', '"abc".charAt([2])', '"abc".slice("1")', '"abc".slice(undefined, "2")', '"abc".at("-1")',
  '[1, 2, 3].slice("1", [2])', '[1, 2, 3].at(true)', '"ab".repeat("3")', '"ab".repeat([2])', '(12.345).toFixed("1")',
  '(255).toString("16")', '"abc".includes(["b"])', '"1,2".split(",", "1")', '[1, 2].join(0)',
  '[1, 2].join(null)', '[1, 2].join(undefined)', '[1, 2].join([])', '[1, 2].join(["-", "+"])', '"abc".indexOf(["c"])',
  'Math.max("3", [4], null)', 'String(Math.max("x", 1))', 'Math.abs("-5")', 'Math.abs([-2])', 'Math.abs(null)',
  'String(Math.abs(undefined))', 'Math.floor(" 7.9 ")', 'Math.pow("2", "3")', 'Math.round(true)', '"x".padStart("3", 0)',
  '"x".padEnd(3, 12)', '"abc".substring("2", "0")', '"abc".startsWith(["a"])', '"abc".concat(1, null, undefined, [2, 3], true)',
  '"a,b".split([","])', '"a-b".replace(["-"], 0)', '"a1".replaceAll(1, 2)', '"a1".replace(1, "x")', '"a1".split(null)', '"anullb".split(null)',
  '"a1b1".split(1)', '"xundefinedy".replace(undefined, "-")', '"truex".replaceAll(true, 1)', '"1,2x".replace([1, 2], "!")',
]);
t.g('data', [
  'num + str', 'num - str', 'num * str', 'str * 2', 'str + num', '-str', 'str == 42', 'str === "42"', 'num > str',
  '`${num}${str}`', '[num, str].join("|")', 'Number(str) + num',
]);

// ToPrimitive of objects that convert: an own valueOf key is skipped (it is not a function) and
// the inherited toString writes "[object Object]"; comparing objects converts nothing.
t.g('toprimitive', [
  ['vo + ""', { vo: { valueOf: 1 } }], ['`${vo}`', { vo: { valueOf: 1 } }], ['String(vo)', { vo: { valueOf: 1 } }],
  ['vo == "[object Object]"', { vo: { valueOf: 1 } }], ['String(vo * 1)', { vo: { valueOf: 1 } }], ['[vo].join()', { vo: { valueOf: 1 } }],
  ['String(+vo)', { vo: { valueOf: "2" } }], ['vo < 1', { vo: { valueOf: 0 } }],
  ['ts === ts', { ts: { toString: 1 } }], ['ts == ts', { ts: { toString: 1 } }], ['ts == null', { ts: { toString: 1 } }],
  ['ts.toString', { ts: { toString: 1 } }], ['[ts].includes(ts)', { ts: { toString: 1 } }], ['[ts, ts].toSorted(() => 0).length', { ts: { toString: 1 } }],
  ['JSON.stringify(ts)', { ts: { toString: 1 } }], ['!ts', { ts: { toString: 1 } }], ['typeof ts', { ts: { toString: 1 } }],
  ['Object.keys(ts)', { ts: { toString: 1 } }], ['ts.toString === 1 ? "own" : "other"', { ts: { toString: 1 } }],
  'JSON.stringify(Object.groupBy([1, 2, 3], v => v % 2))', 'Object.keys(Object.groupBy([1, 2, 3], v => v % 2))',
  'typeof Object.groupBy([1], v => v)', '!Object.groupBy([1], v => v)', 'Object.groupBy([1], v => v) ? 1 : 2',
  '({ ...Object.groupBy([1, 2], v => v) }) + ""', 'Object.fromEntries(Object.entries(Object.groupBy([1], v => v))) + ""',
  '[Object.groupBy([1], v => v)].map(g => g === g)', '[Object.groupBy([1], v => v)].map(g => g == g)', 'Object.groupBy([1], v => v) == null',
  'Object.groupBy([1], v => v).toString', 'Object.groupBy(["toString"], v => v).toString.length', 'String(Object.groupBy([1], v => v)[1])',
  'JSON.stringify([Object.groupBy([1], v => v)].toSorted(() => 0))', 'Object.values(Object.groupBy([3, 4], v => v > 3)).join(";")',
]);

export default t.cases;
