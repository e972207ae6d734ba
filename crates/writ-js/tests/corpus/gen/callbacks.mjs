// Callbacks: every method that takes one, with one to five parameters, destructuring (object,
// array, nested, computed keys, rest), defaults that read earlier parameters, the index and array
// parameters, nested arrows, shadowing, and globals standing in for a callback.
import { topic } from './lib.mjs';

const t = topic('cb', {
  xs: [3, 1, 4, 1, 5], words: ['pear', 'fig', 'apple'], pairs: [['a', 1], ['b', 2]], mixed: [0, 1, '', 'x', null, undefined, NaN, [], {}],
  rows: [{ id: 1, name: 'Ada', tags: ['x'], info: { age: 36, city: 'London' } }, { id: 2, name: 'Bob', tags: [], info: { age: 25 } }, { id: 3, name: 'Cy', info: { age: 41, city: 'Paris' } }],
  nums: ['1', '2.5', 'x', '', ' 7 '], key: 'name', x: 100, grid: [[1, 2], [3, 4]], texts: ['a b', 'c', 'é ü'],
  nested: [{ p: { q: [1, 2] } }, { p: { q: [3] } }],
});

t.g('params', [
  'xs.map(() => 0)', 'xs.map(x => x * 2)', 'xs.map((x) => x + 1)', 'xs.map((x, i) => x * i)', 'xs.map((x, i, arr) => arr.length - i)',
  'xs.map((x, i, arr, extra) => extra)', 'xs.map((a, b, c, d, e) => [a, b, c.length, d, e])', 'xs.filter((x, i) => i % 2 === 0)',
  'xs.filter((x, i, arr) => arr.indexOf(x) === i)', 'xs.reduce((acc, x) => acc + x)', 'xs.reduce((acc, x) => acc + x, 10)',
  'xs.reduce((acc, x, i) => acc + x * i, 0)', 'xs.reduce((acc, x, i, arr) => acc + arr.length, 0)',
  'xs.reduce((acc, x, i, arr, five) => five, "init")', 'xs.reduceRight((acc, x) => acc + "," + x)', 'xs.reduceRight((acc, x, i) => acc.concat(i), [])',
  'xs.find((x, i) => i > 1)', 'xs.findIndex((x, i, arr) => x === arr[0] + 1)', 'xs.findLast((x, i) => i < 2)',
  'xs.findLastIndex(x => x === 1)', 'xs.some((x, i) => x === i)', 'xs.every((x, i, arr) => arr[i] === x)',
  'xs.flatMap((x, i) => [x, i])', 'xs.toSorted((a, b) => a - b)', 'xs.toSorted((a, b) => b - a)', 'words.toSorted((p, q) => p.length - q.length)',
  'Array.from(xs, (x, i) => x + i)', 'Array.from({ length: 4 }, (_, i) => i * i)', 'Array.from("abc", (c, i) => c + i)',
  'Array.from({ length: 3 }, () => "z")', 'Array.from(xs, x => x)', 'xs.map(x => x, 5)', 'xs.map((x, i, arr, a4, a5) => a4 === a5)',
]);
t.g('destructure', [
  'rows.map(({ name }) => name)', 'rows.map(({ id, name }) => `${id}:${name}`)', 'rows.map(({ name: n }) => n)',
  'rows.map(({ info: { age } }) => age)', 'rows.map(({ info: { city = "?" } }) => city)', 'rows.map(({ tags = ["none"] }) => tags)',
  'rows.map(({ missing }) => missing)', 'rows.map(({ missing = 0 }) => missing)', 'rows.map(({ id, ...rest }) => rest)',
  'rows.map(({ info: { age, ...others } }) => others)', 'rows.map(({ [key]: v }) => v)', 'rows.map(({ ["i" + "d"]: v }) => v)',
  'rows.map(({ "name": n }) => n)', 'pairs.map(([k, v]) => k + v)', 'pairs.map(([k]) => k)', 'pairs.map(([, v]) => v)',
  'pairs.map(([k, v, w]) => w)', 'pairs.map(([k, v, w = "dflt"]) => w)', 'pairs.map(([first, ...rest]) => rest)',
  'grid.map(([a, b]) => a * b)', 'grid.map(([a, ...more]) => more.length)', 'texts.map(([first, second]) => [first, second])',
  'texts.map(([...chars]) => chars.length)', '["😀x"].map(([a, b]) => [a, b])', 'nested.map(({ p: { q: [first] } }) => first)',
  'nested.map(({ p: { q: [, second = -1] } }) => second)', 'pairs.reduce((acc, [k, v]) => ({ ...acc, [k]: v }), {})',
  'rows.reduce((acc, { name }) => acc + name[0], "")', 'rows.find(({ id }) => id === 2)', 'rows.filter(({ info: { age } }) => age > 30).length',
  'rows.some(({ tags }) => tags === undefined)', 'rows.toSorted(({ name: a }, { name: b }) => (a < b ? 1 : a > b ? -1 : 0)).map(r => r.id)',
  'Array.from(pairs, ([k, v]) => k.repeat(v))', 'pairs.flatMap(([k, v]) => Array.from({ length: v }, () => k))',
  'rows.map(({ info }) => info.city ?? "-")', 'rows.map(({ id } = {}) => id)', '[undefined, { id: 9 }].map(({ id } = { id: 0 }) => id)',
  '[[1, [2, 3]]].map(([a, [b, c]]) => a + b + c)', '[{ a: [{ b: 5 }] }].map(({ a: [{ b }] }) => b)',
]);
t.g('defaults', [
  'xs.map((x, i, arr, d = i * 2) => d)', 'xs.map((x, i = 99) => i)', 'xs.map((x = 0) => x)', '[undefined, null, 0].map((x = "d") => x)',
  'xs.map((x, i, arr, total = arr.length, share = x / total) => share)', 'xs.map((x, y = x * 10) => y)',
  'xs.filter((x, i, arr, prev = arr[i - 1]) => prev === undefined || x > prev)', 'xs.reduce((acc = 5, x) => acc + x)',
  '[1, 2].map((x, i, arr, { length } = arr) => length)', '[1, 2].map((x, i, [a, b] = [x, i]) => a + b)',
  'rows.map(({ info: { city } = {}, name }, i, all, label = `${name}@${city ?? "?"}`) => label)',
  'xs.map((x, i, arr, k = key) => k)', 'xs.map((x, i, arr, y = x) => y + x)',
]);
t.g('nested', [
  'grid.map(row => row.map(v => v * 10))', 'grid.map((row, i) => row.map((v, j) => v * i + j))', 'rows.map(r => r.tags?.map(t => t.toUpperCase()))',
  'rows.map(r => words.filter(w => w.length === r.name.length))', 'xs.map(x => xs.filter(y => y < x).length)',
  'xs.map(x => [1, 2].map(x => x * 10))', 'xs.map(x => [1, 2].map(y => x))', 'grid.flatMap(row => row.filter(v => v % 2))',
  'rows.filter(r => r.tags && r.tags.some(t => t === "x")).map(r => r.id)', 'grid.reduce((acc, row) => acc + row.reduce((s, v) => s + v, 0), 0)',
  'words.map(w => Array.from(w, (c, i) => (i === 0 ? c.toUpperCase() : c)).join(""))', 'xs.map(x => x + x)', 'xs.map(xs => xs)',
  'rows.map(rows => rows.id)', 'xs.map(x => x).map(x => x * 2).filter(x => x > 4)',
]);
t.g('globals', [
  'mixed.filter(Boolean)', 'mixed.filter(Boolean).length', 'nums.map(Number)', 'xs.map(String)', 'mixed.map(String)',
  'nums.map(parseFloat)', 'nums.filter(isFinite)', 'nums.some(isNaN)', 'nums.map(isNaN)', 'words.map(encodeURIComponent)',
  '["a%20b", "%C3%A9"].map(decodeURIComponent)', 'xs.every(Number)', 'mixed.find(Boolean)', 'mixed.findIndex(Boolean)',
  'mixed.findLast(Boolean)', 'mixed.findLastIndex(Boolean)', 'xs.flatMap(String)', '[5, 6].reduce(Number)', 'xs.reduceRight(String)',
  'Array.from("123", Number)', 'Array.from(xs, String)', 'xs.some(isFinite)', 'mixed.map(Boolean)', 'mixed.map(Number)',
  'nums.map(Number).filter(isFinite)', '["1", "2"].map(Number).reduce((a, b) => a + b)', '[0, "", "a"].every(Boolean)',
  'rows.map(r => r.id).map(String).join("-")', '[1.5, "2.5"].map(isFinite)', '[[1, 2], []].filter(Boolean).length',
]);
t.g('shadow', [
  'xs.map(x => x)', 'xs.map(key => key)', 'xs.map(Number => Number + 1)', 'xs.map(String => String)', 'rows.map(x => x.id + x)',
]);
t.g('order', [
  'xs.toSorted((a, b) => a - b).map((x, i) => `${i}:${x}`)', 'rows.toSorted((a, b) => b.info.age - a.info.age).map(r => r.name)',
  '[{ k: 1, v: "a" }, { k: 0, v: "b" }, { k: 1, v: "c" }, { k: 0, v: "d" }].toSorted((a, b) => a.k - b.k).map(o => o.v).join("")',
  'words.toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0))', 'xs.toSorted((a, b) => String(b - a))', 'xs.toSorted(() => 0)',
  'xs.toSorted((a, b) => (a === b ? 0 : a < b ? -1 : 1))',
]);

// Defaults that read earlier parameters, or names an inner arrow binds again, are no temporal
// dead zone; a default that is not evaluated reads nothing.
t.g('tdzok', [
  '[1].map((a = a) => a)', '[undefined].map((a, b = a) => b)', '[[undefined, undefined]].map(([a = 1, b = a]) => a + b)', '[{}].map(({ a = 1, b = a }) => b)',
  '[undefined].map((a = xs.map(b => b), b) => a)', '[undefined].map((a = xs.map(a => a)) => a)', '[{ b: 2 }].map(({ a = 1, b }) => a + b)',
  '[[5]].map(([a = b, b]) => a)', '[[undefined]].map(([a = 1, [b] = [a]]) => b)', 'xs.map((v, i, arr, d = x) => d)',
]);

export default t.cases;
