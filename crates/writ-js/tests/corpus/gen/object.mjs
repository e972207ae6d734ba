// Object statics: keys, values, entries, fromEntries, hasOwn, is; integer-like key order, arrays
// as receivers, own keys that shadow inherited names; groupBy over arrays and strings.
import { topic } from './lib.mjs';

const t = topic('obj', {
  o: { b: 2, a: 1, 10: 'ten', 2: 'two', '-1': 'neg', '01': 'pad', '1.5': 'frac' }, e: {}, xs: ['x', 'y'], nested: { p: { q: 1 }, r: [1, 2] },
  own: { constructor: 1, toString: 2, __proto__x: 3, hasOwnProperty: 4 }, pairs: [['a', 1], ['b', 2]], nil: null, k: 'a',
  prices: { apple: 1.25, pear: 0.5, kiwi: 2 },
});

t.g('keys', ['Object.keys(o)', 'Object.keys(e)', 'Object.keys(xs)', 'Object.keys([])', 'Object.keys(nested)', 'Object.keys(own)', 'Object.keys({ z: 1, 3: 1, y: 1, 1: 1 })', 'Object.keys(o).length', 'Object.keys({ ...o, 0: 0 })', 'Object.keys([[1], [2]])']);
t.g('values', ['Object.values(o)', 'Object.values(e)', 'Object.values(xs)', 'Object.values(nested)', 'Object.values(own)', 'Object.values(prices).reduce((a, b) => a + b)', 'Object.values({ u: undefined })']);
t.g('entries', ['Object.entries(o)', 'Object.entries(e)', 'Object.entries(xs)', 'Object.entries(nested)', 'Object.entries(prices).map(([k, v]) => `${k}=${v}`).join("&")', 'Object.entries({ 2: "b", 1: "a" })', 'Object.entries(prices).filter(([, v]) => v >= 1).map(([k]) => k)']);
t.g('fromEntries', [
  'Object.fromEntries(pairs)', 'Object.fromEntries([])', 'Object.fromEntries(Object.entries(o))', 'Object.fromEntries([["a", 1], ["a", 2]])',
  'Object.fromEntries([[1, "one"], [null, "nul"], [true, "t"], [undefined, "u"]])', 'Object.fromEntries([["k"]])', 'Object.fromEntries([["k", 1, 2]])',
  'Object.fromEntries([["b", 1], ["2", 2], ["a", 3], ["1", 4]])', 'Object.fromEntries(Object.entries(prices).map(([k, v]) => [k.toUpperCase(), v * 2]))',
  'Object.fromEntries([["__proto__", 1]])', 'Object.keys(Object.fromEntries([["__proto__", { x: 1 }]]))', 'Object.fromEntries(xs.map((x, i) => [x, i]))',
]);
t.g('hasOwn', [
  'Object.hasOwn(o, "a")', 'Object.hasOwn(o, "z")', 'Object.hasOwn(o, 10)', 'Object.hasOwn(o, "10")', 'Object.hasOwn(o, 1.5)', 'Object.hasOwn(e, "toString")',
  'Object.hasOwn(own, "toString")', 'Object.hasOwn(own, "constructor")', 'Object.hasOwn(xs, 0)', 'Object.hasOwn(xs, 2)', 'Object.hasOwn(xs, "1")',
  'Object.hasOwn({ u: undefined }, "u")', 'Object.hasOwn(nested, k)', 'Object.hasOwn(o, k)', 'Object.hasOwn(e, "__proto__")', 'Object.hasOwn({ ["__proto__"]: 1 }, "__proto__")', 'Object.hasOwn(o, -1)',
]);
t.g('is', [
  'Object.is(1, 1)', 'Object.is(NaN, NaN)', 'Object.is(0, -0)', 'Object.is(-0, -0)', 'Object.is("a", "a")', 'Object.is(null, undefined)', 'Object.is(o, o)',
  'Object.is(o, { ...o })', 'Object.is([], [])', 'Object.is(xs, xs)', 'Object.is(nested.p, nested.p)', 'Object.is()', 'Object.is(undefined)',
  'Object.is(0 / 0, NaN)', 'Object.is(1, "1")', 'Object.is(nil, null)',
]);
t.g('usage', [
  'Object.keys(prices).filter(k => prices[k] > 1)', 'Object.entries(prices).toSorted(([, a], [, b]) => a - b).map(([k]) => k)',
  'Object.fromEntries(Object.entries(prices).filter(([k]) => k !== "pear"))', 'Object.keys(o).every(k => Object.hasOwn(o, k))',
  'Object.values(nested).length', 'Object.entries(nested.p)[0]', 'Object.keys({ ...prices, apple: 9 })', 'Object.keys(prices).map(k => k.length)',
  'Object.entries(o).length === Object.keys(o).length', 'Object.fromEntries(Object.keys(prices).map(k => [k, k.length]))',
]);

const rows = [
  { name: 'Mug', stock: 4, status: 'open', price: 12.5 }, { name: 'Kettle', stock: 0, status: 'sold', price: 104.99 },
  { name: 'Beans', stock: 12, status: 'open', price: 5 }, { name: 'Tea', stock: 2, status: 'held', price: 42.1 },
];
t.g('groupBy', [
  'Object.groupBy(rows, r => r.status)', 'Object.groupBy(rows, r => (r.stock > 0 ? "in" : "out"))', 'Object.groupBy(xs, x => (x % 2 ? "odd" : "even"))',
  'Object.groupBy(words, w => w[0])', 'Object.groupBy(e, x => x)', 'Object.groupBy("hello", c => c)', 'Object.groupBy("a😀b😀", c => c.length)',
  'Object.groupBy(xs, x => x)', 'Object.keys(Object.groupBy(xs, x => x))', 'Object.groupBy(xs, (x, i) => i % 3)', 'Object.groupBy(rows, ({ status }) => status)',
  'Object.groupBy(xs, x => x > 3)', 'Object.groupBy(xs, x => null)', 'Object.groupBy(xs, x => undefined)', 'Object.groupBy(xs, () => "__proto__")',
  'Object.groupBy(xs, x => [x % 2, "k"])', 'Object.groupBy(words, String)', 'Object.groupBy([1, "1", 1.0], String)', 'Object.groupBy(xs, x => -x)',
  'Object.entries(Object.groupBy(rows, r => r.status)).map(([k, v]) => `${k}: ${v.length}`)', 'Object.groupBy(rows, r => r.status).open.map(r => r.name)',
  'Object.fromEntries(Object.entries(Object.groupBy(rows, r => r.status)).map(([k, v]) => [k, v.reduce((s, r) => s + r.stock, 0)]))',
  'Object.groupBy(rows, r => r.status).open[0] === rows[0]', 'Object.groupBy(xs, x => x % 2 ? 1.5 : 2)', 'Object.hasOwn(Object.groupBy(xs, x => "k"), "k")',
  'JSON.stringify(Object.groupBy(words, w => w.length), null, 1)', 'Object.groupBy(words, w => w.length > 5 ? "long" : "short").long.length',
], { rows, xs: [3, 1, 4, 1, 5, 9, 2, 6], words: ['apple', 'avocado', 'banana', 'blueberry', 'cherry'], e: [] });

export default t.cases;
