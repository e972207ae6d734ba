// Reads: dotted and computed members, indices, optional chains, own keys that look special.
import { topic } from './lib.mjs';

const t = topic('mem', {
  user: { name: 'Ada', address: { city: 'London', zip: null }, tags: ['a', 'b'], 'full name': 'Ada L.', 1: 'one', '': 'empty key', true: 'yes', null: 'nul', undefined: 'undef', constructor: 'own constructor', toString: 'own toString', hasOwnProperty: 1, length: 'own length', __proto__x: 2 },
  xs: [10, 20, 30], grid: [[1, 2], [3, 4]], s: 'héllo', em: '😀x', nil: null, und: null, k: 'name', i: 1, neg: -1,
  deep: { a: { b: { c: { d: { e: 'deep' } } } } }, rows: [{ id: 1, meta: { tag: 'x' } }, { id: 2 }, { id: 3, meta: null }],
  obj: { 0: 'zero', 10: 'ten', 2: 'two', '-1': 'minus', '1.5': 'frac', '01': 'padded' },
});

t.g('dot', [
  'user.name', 'user.address.city', 'user.address.zip', 'user.missing', 'user.address.missing', 'deep.a.b.c.d.e',
  'user.tags', 'user.tags.length', 'xs.length', 's.length', 'em.length', '"".length', '[].length', 'user.constructor',
  'user.toString', 'user.hasOwnProperty', 'user.length', 'user.__proto__x', 'rows[0].meta.tag', 'grid.length',
]);
t.g('computed', [
  'user[k]', 'user["name"]', 'user["full name"]', 'user[1]', 'user["1"]', 'user[""]', 'user[true]', 'user["true"]',
  'user["null"]', 'user["undefined"]', 'user[k + ""]', 'user["na" + "me"]', 'user[`name`]', 'user[`na${"me"}`]',
  'user["address"]["city"]', 'user["missing"]', 'obj[0]', 'obj["0"]', 'obj[10]', 'obj[2]', 'obj[-1]', 'obj["-1"]',
  'obj[1.5]', 'obj["1.5"]', 'obj["01"]', 'obj[1]', 'obj[0.5 + 0.5 - 1]', 'obj[2 * 5]', 'obj[1e1]', 'deep["a"].b["c"]["d"].e',
]);
t.g('index', [
  'xs[0]', 'xs[2]', 'xs[3]', 'xs[i]', 'xs[i + 1]', 'xs["1"]', 'xs[neg]', 'xs[-1]', 'xs[1.5]', 'xs[NaN]', 'xs[i * 2]',
  'xs[xs.length - 1]', 'grid[1][0]', 'grid[0][5]', 'grid[i][i]', 's[0]', 's[1]', 's[5]', 's[-1]', 's[i]', 'em[0]', 'em[1]',
  'em[2]', '"abc"[1]', '[1, 2, 3][1]', '[[5]][0][0]', 'xs[0.0]', 'xs[1e0]', 'xs[Infinity]', 'xs[-0]', 'xs[true + 0]',
  'rows[1].id', 'rows[i].meta', '[xs][0][1]',
]);
t.g('optional', [
  'nil?.a', 'nil?.a.b.c', 'und?.[0]', 'user?.name', 'user?.address?.city', 'user?.missing?.deep', 'user.missing?.deep.x',
  'nil?.[k]', 'user?.[k]', 'xs?.[1]', 'xs?.length', 'nil?.length', 's?.length', 'rows[1].meta?.tag', 'rows[2].meta?.tag',
  'rows[0].meta?.tag', 'rows.map(r => r.meta?.tag)', 'rows.map(r => r?.meta?.tag ?? "-")', 'nil?.map(x => x)',
  'xs?.map(x => x + 1)', 'nil?.a ?? "default"', 'user?.tags?.[0]', 'user?.tags?.[5]?.length', 'deep?.a?.b?.c?.d?.e',
  'grid?.[1]?.[1]', 'nil?.["x"]', 'user?.["full name"]', 'rows.find(r => r.id === 9)?.meta', 'xs.at(5)?.toFixed(1)',
  'xs.at(0)?.toFixed(1)', 'nil?.toString()', '(nil?.a) ?? 1', 'typeof nil?.a',
]);
t.g('mixed', [
  'rows.map(r => r.id)', 'rows.map(r => r["id"])', 'rows.map(r => r.meta)', 'rows.filter(r => r.meta).length',
  'user.tags[user.tags.length - 1]', 'grid.map(row => row[0])', 'grid[0].concat(grid[1])[3]', 'xs[xs.indexOf(20)]',
  'obj[Object.keys(obj)[0]]', 'user[Object.keys(user)[0]]', 'Object.keys(obj)', 'deep.a.b.c',
]);

export default t.cases;
