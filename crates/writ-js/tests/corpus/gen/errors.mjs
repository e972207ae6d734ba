// Expressions where plain JavaScript throws, so writ must fail with node's envelope code:
// expression-runtime for a TypeError, RangeError, URIError or SyntaxError thrown while running,
// unknown-reference for a name nothing provides, expression-syntax for source that does not parse.
import { topic } from './lib.mjs';

const t = topic('err', {
  nil: null, user: { name: 'Ada', meta: null }, xs: [1, 2, 3], e: [], o: { a: 1 }, x: 5, s: 'abc',
  rows: [{ id: 1, meta: { tag: 'a' } }, { id: 2, meta: null }],
});

t.g('nullish', [
  'nil.a', 'nil[0]', 'nil["k"]', 'nil.length', 'user.missing.deep', 'user.meta.tag', 'xs[5].x', 'e[0].id', 'xs.at(9).toFixed(1)', 'e.find(r => r).id',
  '(nil?.a).b', 'user?.missing.deep', 'null.a', 'undefined.a', 'undefined[0]', 'rows.map(r => r.meta.tag)', 'xs.find(v => v.y.z)', 'user.missing[0]',
  'e.at(0).x', 'nil.map(v => v)', 'user.missing.toString()', 'nil.toFixed(2)', '`${nil.x}`', '[nil.x]', '({ v: nil.x })', 'nil.a ?? 1', 'rows[1].meta.tag.length',
]);
t.g('destructure', [
  '[null].map(({ a }) => a)', '[undefined].map(([a]) => a)', '[5].map(([a]) => a)', '[{}].map(([a]) => a)', 'xs.map(([a]) => a)', 'rows.map(({ meta: { tag } }) => tag)',
  '[[null]].map(([{ a }]) => a)', '[true].map(([a]) => a)', '[nil].map(({ a } = {}) => a)',
]);
t.g('spread', ['[...5]', '[...nil]', '[...o]', '[...true]', 'Math.max(...5)', 'Math.max(...o)', 'Math.max(...nil)', 'Array.of(...x)', '[...xs, ...user.missing]', 'String.fromCharCode(...o)']);
t.g('notfn', [
  'x()', 'xs[0]()', 's()', 'xs.map(5)', 'e.map(5)', 'xs.filter("x")', 'xs.reduce(null)', 'xs.find()', 'xs.findIndex(o)', 'xs.some(1)', 'xs.every()',
  'xs.findLast(null)', 'xs.findLastIndex(true)', 'xs.flatMap(1)', 'xs.reduceRight("f")', 'xs.toSorted(5)', 'xs.toSorted(null)', 'Array.from(xs, 5)', 'Array.from(xs, null)',
  'e.reduce(o, 0)', 'xs.map(xs)', 'xs.map(o.a)',
]);
t.g('receiver', [
  '(5).toUpperCase()', 's.toFixed(2)', 'xs.toUpperCase()', 'xs.toFixed(1)', 'o.map(v => v)', 's.map(v => v)', '(5).map(v => v)', 'xs.trim()', 's.flat()', 's.join(",")',
  '(1).at(0)', 's.reduce((a, b) => a + b)', 'xs.split(",")', 'true.toFixed()', 'o.join()', 'o.slice(1)', 'o.includes(1)', 'o.toFixed(2)', 'x.padStart(3)', 'x.includes(5)',
  'xs.padEnd(2)', 's.filter(Boolean)', 'nil.trim()', 'user.name.toFixed(1)', 'o.toSorted()', 's.with(0, "x")', 'x.localeCompare("a")',
]);
t.g('empty', ['e.reduce((a, b) => a + b)', 'e.reduceRight((a, b) => a + b)', '[].reduce((a, b) => a)', 'xs.filter(v => v > 9).reduce((a, b) => a + b)', '"".split("").reduce((a, b) => a + b)']);
t.g('range', [
  '(1).toFixed(101)', '(1).toFixed(-1)', '(NaN).toFixed(101)', '(1).toFixed(Infinity)', '(1).toPrecision(0)', '(1).toPrecision(101)', '(1).toExponential(-1)',
  '(1).toExponential(101)', '(255).toString(1)', '(255).toString(37)', '(255).toString(0)', '(255).toString(null)', '"ab".repeat(-1)', '"ab".repeat(Infinity)',
  '"".repeat(-1)', 'xs.with(3, 0)', 'xs.with(-4, 0)', 'e.with(0, 1)', 'xs.with(Infinity, 1)', '"x".normalize("NFX")', '"x".normalize("nfc")', '"x".normalize(null)',
  'String.fromCodePoint(-1)', 'String.fromCodePoint(1.5)', 'String.fromCodePoint(0x110000)', 'String.fromCodePoint(NaN)', 'String.fromCodePoint("x")',
  'String.fromCodePoint(Infinity)', 'x.toFixed(1000)', '(0).toPrecision(-5)',
]);
t.g('uri', [
  'decodeURIComponent("%")', 'decodeURIComponent("%E0%A4%A")', 'decodeURIComponent("%C0%80")', 'decodeURIComponent("%ED%A0%80")', 'decodeURIComponent("%FF")',
  'decodeURIComponent("%F4%90%80%80")', 'decodeURIComponent("%zz")', 'decodeURIComponent("%E2%82")', 'decodeURIComponent("%80")', 'encodeURIComponent("\\uD800")',
  'encodeURIComponent("\\uDC00")', 'encodeURIComponent("a\\uD800b")', 'encodeURIComponent("\\uDE00\\uD83D")', '["%"].map(decodeURIComponent)',
]);
t.g('json', [
  'JSON.parse("{")', 'JSON.parse("")', 'JSON.parse("[1,]")', 'JSON.parse("01")', 'JSON.parse("\'a\'")', 'JSON.parse("NaN")', 'JSON.parse("undefined")', 'JSON.parse("{a:1}")',
  'JSON.parse("[1] x")', 'JSON.parse("\\"\\\\x41\\"")', 'JSON.parse("\\"tab\\tinside\\"")', 'JSON.parse("1.")', 'JSON.parse(".5")', 'JSON.parse("+1")', 'JSON.parse("-")',
  'JSON.parse()', 'JSON.parse(o)', 'JSON.parse("{\\"a\\" 1}")', 'JSON.parse("\\"\\\\ud800")', 'JSON.parse("[1, 2")', 'JSON.parse("{\\"a\\":1,}")', 'JSON.parse("tru")',
  'JSON.parse("1e")', 'JSON.parse("0x10")', 'JSON.parse("Infinity")', 'JSON.parse("\\"\\\\u12\\"")', 'JSON.parse(nil + "x")', 'JSON.parse("[\\"a\\"\\"b\\"]")',
]);
t.g('statics', [
  'Object.keys(nil)', 'Object.keys(undefined)', 'Object.values(nil)', 'Object.entries(undefined)', 'Object.fromEntries(nil)', 'Object.fromEntries([1])',
  'Object.fromEntries(["ab"])', 'Object.fromEntries([nil])', 'Object.hasOwn(nil, "a")', 'Object.hasOwn(undefined, "a")', 'Array.from(nil)', 'Array.from(undefined)',
  'Object.keys()', 'Object.entries()',
]);
t.g('unknown', [
  'nope', 'nope.x', 'nope()', 'xs.map(v => nope)', 'Math.max(nope)', '[nope]', '({ a: nope })', '`${nope}`', '1 + nope', 'nil ?? nope', 'false || nope',
  'true && nope', 'nope ? 1 : 2', 'xs.map(v => v + undef1)', '-nope', '!nope', 'nope?.x', 'nope[0]', 'o[nope]', 'xs.filter(Boolean).map(v => nope2)',
  'Nope', 'mathh.max(1)', '[undefined].map(([a] = nope) => a)', 'e.map(v => nope) && nope3',
]);
t.g('sumPrecise', ['Math.sumPrecise([1, "2"])', 'Math.sumPrecise([null])', 'Math.sumPrecise()', 'Math.sumPrecise(5)', 'Math.sumPrecise("12")', 'Math.sumPrecise([NaN, "x"])']);
t.g('syntax', ['1 +', '(1', 'a ?? b || c', '-2 ** 2', '"unterminated', '[1, 2', '({ a: })', 'a b', '`${`', '()', '1 2', 'xs.', '.5.5', 'x => ']);

// ToPrimitive of an object with an own toString key (not a function, so it shadows the method and
// is skipped; valueOf answers the object itself): every conversion to a primitive throws a
// TypeError. The same for the null-prototype object Object.groupBy answers.
t.g('toprimitive', [
  'ts + ""', '`${ts}`', 'String(ts)', 'ts == "x"', 'ts != "x"', 'ts < 1', '1 >= ts', 'ts * 1', '+ts', '-ts', 'ts - 1', 'ts ** 2', '[ts].join()', '[[ts]].join("-")',
  '"x".concat(ts)', '({ [ts]: 1 })', '[ts, ts].toSorted()', 'o[ts]', 'Number(ts)', 'isNaN(ts)', 'parseInt(ts)', 'parseFloat(ts)', '"abc".includes(ts)',
  '"a".repeat(ts)', 'String([ts])', '`${[1, ts]}`', 'ts == 1', 'ts == true', 'Math.max(ts)', 'Math.abs(ts)', 'Object.groupBy(xs, v => ts)',
  'Object.fromEntries([[ts, 1]])', 'Object.hasOwn(o, ts)', '"a".localeCompare(ts)', '[ts].toLocaleString()', '[tl].toLocaleString()', 'xs.at(ts)',
  'xs.slice(ts)', '"abc".split(ts)', '"abc".indexOf(ts)', '"abc".padStart(5, ts)', 'String.fromCharCode(ts)', '(1).toFixed(ts)', 'xs.join(ts)',
  'tn + ""', 'both + ""', 'both * 1', 'String(tn)', '[o, ts].join()', 'xs.map(v => v + ts)', '[o, ts].toSorted().length', 'xs.with(ts, 0)',
  'Object.groupBy(xs, v => v % 2) + ""', '`${Object.groupBy(xs, v => v)}`', 'String(Object.groupBy(xs, v => v))', 'Object.groupBy(xs, v => v) == "x"',
  'Object.groupBy(xs, v => v) < 1', 'Object.groupBy(xs, v => v) * 1', '[Object.groupBy(xs, v => v)].join()', '"x".concat(Object.groupBy(xs, v => v))',
  '({ [Object.groupBy(xs, v => v)]: 1 })', 'xs.map(v => Object.groupBy([v], w => w)).toSorted()', 'Number(Object.groupBy(e, v => v))',
  '[Object.groupBy(xs, v => v)].toLocaleString()', 'xs.map(v => Object.groupBy([v], w => w) + "")', 'o[Object.groupBy(xs, v => v)]',
  'Object.groupBy(xs, v => v) == 1', '[[Object.groupBy(xs, v => v)]].join()', 'Object.groupBy(Object.groupBy(xs, v => v)[1], v => Object.groupBy(xs, w => w))',
], { ts: { toString: 1 }, tn: { toString: null }, tl: { toLocaleString: 1 }, both: { toString: 'x', valueOf: 2 } });
// A default that reads its own parameter or a later one reads it in its temporal dead zone.
t.g('tdz', [
  '[undefined].map((a = a) => a)', '[undefined].map((a = b, b) => a)', '[[]].map(([a = b, b]) => a)', '[{}].map(({ a = b, b }) => a)', '[[]].map(([a = a]) => a)',
  '[undefined].map(({ p } = p) => p)', '[undefined].map((a = typeof b, b) => a)', '[undefined].map((a = [1].map(x => b), b) => a)',
  ['[undefined].map((a = b + 1, b) => a)', { b: 5 }], ['[{}].map(({ [k]: v, k }) => v)', { k: 'v' }], '[undefined].map((a = b.c, b) => a)',
  '[[undefined, undefined]].map(([a = b, b = 1]) => a)', '[{}].map(({ a: { b } = b }) => b)', '[undefined].map((a = (b ?? 1), b) => a)',
  '[undefined].map((a = [undefined].map((x = a) => x)) => a)',
]);

export default t.cases;
