// Array methods and statics, one group per method: bounds, negative and fractional indices, empty
// arrays, NaN, -0, undefined items, objects compared by identity.
import { topic } from './lib.mjs';

const t = topic('arr', {
  xs: [1, 2, 3, 4, 5], e: [], ns: [NaN, 0, -0, 1], us: [undefined, null, 0], objs: [{ id: 1 }, { id: 2 }, { id: 1 }],
  words: ['b', 'a', 'C', 'aa', 'B', ''], nest: [1, [2, [3, [4, [5]]]]], str: ['x', 'y'], one: [7],
  mixed: [10, 9, 1, 100, '5', null, undefined, 'b', true], o: { id: 1 }, dup: [1, 2, 1, 2, 1],
});

t.g('map', ['xs.map(x => x * x)', 'e.map(x => x)', 'us.map(x => x ?? "nil")', 'ns.map(x => Object.is(x, -0))', 'objs.map(o => o.id)', 'xs.map(x => [x])', 'xs.map(x => ({ x }))']);
t.g('filter', ['xs.filter(x => x > 2)', 'xs.filter(x => false)', 'e.filter(x => true)', 'ns.filter(x => x !== x)', 'us.filter(x => x == null)', 'objs.filter(o => o.id === 1)', 'xs.filter(x => x % 2).length', 'objs.filter(o => o.id === 1)[0] === objs[0]']);
t.g('reduce', [
  'xs.reduce((a, b) => a + b)', 'xs.reduce((a, b) => a + b, 0)', 'e.reduce((a, b) => a + b, "init")', 'one.reduce((a, b) => a + b)',
  'one.reduce((a, b) => a * 100)', 'xs.reduce((a, b) => a * b, 1)', 'xs.reduce((acc, x) => [...acc, x * 2], [])',
  'xs.reduce((m, x) => Math.max(m, x), -Infinity)', 'str.reduce((a, b) => a + b)', 'objs.reduce((acc, o) => ({ ...acc, [o.id]: (acc[o.id] ?? 0) + 1 }), {})',
  'xs.reduce((a, b) => a - b)',
]);
t.g('reduceRight', ['xs.reduceRight((a, b) => a - b)', 'xs.reduceRight((a, b) => a + b, "")', 'e.reduceRight((a, b) => a, 0)', 'one.reduceRight((a, b) => a)', 'str.reduceRight((a, b) => a + b)', 'xs.reduceRight((acc, x) => acc.concat([x]), [])']);
t.g('find', ['xs.find(x => x > 2)', 'xs.find(x => x > 9)', 'e.find(x => true)', 'us.find(x => x === undefined)', 'objs.find(o => o.id === 1) === objs[0]', 'ns.find(x => x !== x)', 'objs.find(o => o.id === 2)']);
t.g('findIndex', ['xs.findIndex(x => x > 2)', 'xs.findIndex(x => x > 9)', 'e.findIndex(x => true)', 'ns.findIndex(x => Number.isNaN(x))', 'us.findIndex(x => x === null)']);
t.g('findLast', ['xs.findLast(x => x < 4)', 'xs.findLast(x => x > 9)', 'e.findLast(x => true)', 'objs.findLast(o => o.id === 1) === objs[2]', 'us.findLast(x => !x)']);
t.g('findLastIndex', ['xs.findLastIndex(x => x < 4)', 'xs.findLastIndex(x => x > 9)', 'e.findLastIndex(x => true)', 'dup.findLastIndex(x => x === 2)', 'ns.findLastIndex(x => x === 0)']);
t.g('some', ['xs.some(x => x > 4)', 'xs.some(x => x > 5)', 'e.some(x => true)', 'ns.some(x => x !== x)', 'us.some(x => x === undefined)']);
t.g('every', ['xs.every(x => x > 0)', 'xs.every(x => x > 1)', 'e.every(x => false)', 'str.every(s => typeof s === "string")', 'ns.every(x => x === x)']);
t.g('slice', [
  'xs.slice()', 'xs.slice(1)', 'xs.slice(1, 3)', 'xs.slice(-2)', 'xs.slice(-2, -1)', 'xs.slice(1, -1)', 'xs.slice(3, 1)', 'xs.slice(10)',
  'xs.slice(-10)', 'xs.slice(0, 100)', 'xs.slice(NaN)', 'xs.slice(1.7, 3.2)', 'xs.slice(undefined, 2)', 'xs.slice(0, undefined)',
  'xs.slice(null, 2)', 'xs.slice(-Infinity, Infinity)', 'xs.slice(Infinity)', 'e.slice(1)', 'objs.slice(0, 1)[0] === objs[0]',
  'xs.slice(-0)', 'xs.slice("2")', 'xs.slice(0, -0)',
]);
t.g('concat', [
  'xs.concat(6)', 'xs.concat([6, 7])', 'xs.concat([6], [7, [8]])', 'xs.concat()', 'e.concat(e)', 'xs.concat("ab")', 'xs.concat(null, undefined)',
  'xs.concat({ a: 1 })', 'str.concat(str, str)', 'e.concat([[1]])', '[].concat(1, [2], [[3]])', 'objs.concat(o)[3] === o',
]);
t.g('join', [
  'xs.join()', 'xs.join("")', 'xs.join(", ")', 'xs.join(undefined)', 'xs.join(null)', 'e.join()', 'one.join("-")', 'us.join("-")',
  'nest.join(";")', 'mixed.join()', '[[1, 2], [3]].join("|")', '[{}].join()', 'ns.join()', '[1.5, -0, 1e21, 1e-7].join(" ")',
  'str.join("😀")', '[" ", "  "].join("x")', '[[], [[]], [null]].join("-")',
]);
t.g('includes', [
  'xs.includes(3)', 'xs.includes(6)', 'xs.includes("3")', 'ns.includes(NaN)', 'ns.includes(-0)', 'ns.includes(0)', 'us.includes(undefined)',
  'us.includes(null)', 'e.includes(undefined)', 'xs.includes(3, 3)', 'xs.includes(3, -3)', 'xs.includes(1, -100)', 'xs.includes(5, 100)',
  'objs.includes(objs[1])', 'objs.includes({ id: 1 })', 'objs.includes(o)', '[o].includes(o)', 'xs.includes()', '[undefined].includes()',
  'xs.includes(2, 1.9)', 'xs.includes(1, NaN)',
]);
t.g('indexOf', [
  'xs.indexOf(3)', 'xs.indexOf(6)', 'xs.indexOf("3")', 'ns.indexOf(NaN)', 'ns.indexOf(-0)', 'ns.indexOf(0)', 'us.indexOf(undefined)',
  'us.indexOf(null)', 'dup.indexOf(2, 2)', 'dup.indexOf(1, -2)', 'dup.indexOf(1, -100)', 'dup.indexOf(1, 100)', 'objs.indexOf(objs[2])',
  'objs.indexOf({ id: 1 })', 'e.indexOf(1)', 'xs.indexOf()', 'dup.indexOf(2, 1.5)',
]);
t.g('lastIndexOf', [
  'dup.lastIndexOf(1)', 'dup.lastIndexOf(2)', 'dup.lastIndexOf(3)', 'dup.lastIndexOf(1, 3)', 'dup.lastIndexOf(1, -2)', 'dup.lastIndexOf(1, -100)',
  'dup.lastIndexOf(1, 100)', 'ns.lastIndexOf(NaN)', 'ns.lastIndexOf(0)', 'e.lastIndexOf(1)', 'objs.lastIndexOf(objs[0])', 'dup.lastIndexOf(1, 0)',
  'dup.lastIndexOf(2, 0)', 'dup.lastIndexOf(1, -0)', 'us.lastIndexOf(undefined)', 'dup.lastIndexOf(1, NaN)',
]);
t.g('at', [
  'xs.at(0)', 'xs.at(-1)', 'xs.at(-5)', 'xs.at(-6)', 'xs.at(5)', 'xs.at(1.9)', 'xs.at(-1.9)', 'xs.at(NaN)', 'xs.at()', 'xs.at("2")',
  'e.at(0)', 'e.at(-1)', 'xs.at(Infinity)', 'xs.at(-Infinity)', 'objs.at(-1) === objs[2]', 'xs.at(null)',
]);
t.g('flat', [
  'nest.flat()', 'nest.flat(0)', 'nest.flat(2)', 'nest.flat(3)', 'nest.flat(Infinity)', 'nest.flat(-1)', 'nest.flat(1.9)', 'nest.flat("2")',
  'e.flat()', '[[], [[]], [[], []]].flat()', '[[], [[]], [[], []]].flat(Infinity)', '[1, [2], "ab", [["c"]]].flat()', 'nest.flat(undefined)',
  'nest.flat(NaN)', '[[undefined], [null]].flat()', '[[objs[0]]].flat()[0] === objs[0]',
]);
t.g('flatMap', [
  'xs.flatMap(x => [x, x * 10])', 'xs.flatMap(x => x)', 'xs.flatMap(x => [[x]])', 'xs.flatMap(x => [])', 'e.flatMap(x => [x, x])',
  'str.flatMap(s => s.split(""))', 'xs.flatMap(x => (x % 2 ? [x] : []))', '["a b", "c"].flatMap(s => s.split(" "))', 'objs.flatMap(o => [o.id])',
]);
t.g('toSorted', [
  'xs.toSorted()', '[10, 9, 1, 100, 25].toSorted()', 'words.toSorted()', 'mixed.toSorted()', '[3, undefined, 1, null, 2].toSorted()',
  '[undefined, undefined, 1].toSorted()', 'e.toSorted()', '["😀", "\\uFFFF", "a", "\\u00e9", "Z"].toSorted()', '[true, false, "true", "false"].toSorted()',
  '[-1, -10, 2, -2, 0, -0].toSorted()', '[-1, -10, 2, -2, 0].toSorted((a, b) => a - b)', '[0.5, 1e-7, 1e21, 2].toSorted()',
  '[[2, 1], [1, 2], [1]].toSorted()', '[{ a: 2 }, { a: 1 }].toSorted()', 'objs.toSorted((a, b) => b.id - a.id).map(o => o.id)',
  'xs.toSorted() === xs', 'xs.toSorted((a, b) => b - a)', '["b", "a", "c"].toSorted(undefined)', '[NaN, 1, NaN, 0].toSorted().map(String)',
  'xs.toSorted((a, b) => (a % 2) - (b % 2))', '["10", 9, "8", 100].toSorted()',
]);
t.g('toReversed', ['xs.toReversed()', 'e.toReversed()', 'one.toReversed()', 'us.toReversed()', 'objs.toReversed()[0] === objs[2]', 'xs.toReversed() === xs', 'nest.toReversed()']);
t.g('toSpliced', [
  'xs.toSpliced()', 'xs.toSpliced(1)', 'xs.toSpliced(1, 2)', 'xs.toSpliced(1, 0, "a", "b")', 'xs.toSpliced(-1, 1)', 'xs.toSpliced(-2)',
  'xs.toSpliced(1, 1, "x")', 'xs.toSpliced(10, 1, "end")', 'xs.toSpliced(-10, 1)', 'xs.toSpliced(0, -1, "neg")', 'xs.toSpliced(0, Infinity)',
  'xs.toSpliced(2, undefined)', 'xs.toSpliced(undefined)', 'xs.toSpliced(1.5, 1.5)', 'e.toSpliced(0, 0, 1)', 'xs.toSpliced(0, 0)',
  'xs.toSpliced(0, 0, [1, 2])', 'xs.toSpliced(NaN, 2)',
]);
t.g('with', ['xs.with(0, "a")', 'xs.with(-1, "z")', 'xs.with(-5, 0)', 'xs.with(2.7, "f")', 'xs.with("1", "s")', 'xs.with(4, undefined)', 'one.with(0, [1])', 'xs.with(-0, "n")', 'xs.with(NaN, "nan")']);
t.g('toString', ['xs.toString()', 'e.toString()', 'nest.toString()', 'us.toString()', 'mixed.toString()', '[{}].toString()', '[[[]]].toString()', 'ns.toString()']);
t.g('toLocaleString', ['[1234.5, 7].toLocaleString("en-US")', '[1, "a", null].toLocaleString("en-US")', 'e.toLocaleString("en-US")', '[1e6, -0.5].toLocaleString("en-US")']);
t.g('valueOf', ['xs.valueOf()', 'e.valueOf()', 'xs.valueOf() === xs', 'objs.valueOf()[0] === objs[0]']);
t.g('length', ['xs.length', 'e.length', '[undefined].length', 'nest.length', 'nest.flat(Infinity).length']);
t.g('isArray', ['Array.isArray(xs)', 'Array.isArray(e)', 'Array.isArray("abc")', 'Array.isArray(o)', 'Array.isArray(null)', 'Array.isArray()', 'Array.isArray([[]][0])', 'Array.isArray(1)']);
t.g('of', ['Array.of()', 'Array.of(7)', 'Array.of(1, 2, 3)', 'Array.of(undefined)', 'Array.of(xs)', 'Array.of(...xs)', 'Array.of("a", null, o)']);
t.g('from', [
  'Array.from(xs)', 'Array.from(xs) === xs', 'Array.from("abc")', 'Array.from("😀é")', 'Array.from("")', 'Array.from(e)',
  'Array.from({ length: 3 })', 'Array.from({ length: 0 })', 'Array.from({ length: 2.7 })', 'Array.from({ length: -1 })',
  'Array.from({ length: 3 }, (_, i) => i)', 'Array.from({ length: 5 }, (_, i) => i * 2).filter(x => x > 2)',
  'Array.from(objs)[0] === objs[0]', 'Array.from({ length: 2 }, () => [])', 'Array.from("\\uD83D\\uDE00\\uD800")',
]);
t.g('chain', [
  'xs.slice().toReversed().map(x => x * 2).join("")', 'xs.filter(x => x > 1).toSorted((a, b) => b - a).slice(0, 2)',
  'xs.map(x => x % 3).filter((x, i, a) => a.indexOf(x) === i)', 'dup.toSorted().toReversed().with(0, 9)', 'e.concat(xs).at(-1)',
  'xs.toSpliced(1, 3).concat(xs.slice(1, 4))', 'words.filter(Boolean).map(w => w.toLowerCase()).toSorted()',
]);

export default t.cases;
