// Template literals: interpolation of every kind of value, escapes, nesting, and templates built
// inside callbacks.
import { topic } from './lib.mjs';

const t = topic('tpl', {
  name: 'Ada', n: 3, price: 9.5, xs: [1, 2, 3], user: { first: 'Ada', last: 'Lovelace', tags: ['math', 'code'] },
  nil: null, rows: [{ sku: 'A-1', qty: 2 }, { sku: 'B-7', qty: 0 }], emoji: '😀', flag: true,
});

t.g('basic', [
  '`plain`', '``', '`${name}`', '`Hello, ${name}!`', '`${n} items`', '`${n}${n}`', '`${name}${n}${price}`',
  '`a${1}b${2}c`', '`${1 + 2} = 1 + 2`', '`${"x"}`', '`${""}`', '`${n > 2 ? "many" : "few"}`', '`${`nested ${n}`}`',
  '`${`${`${name}`}`}`', '`${user.first} ${user.last}`', '`${user.tags.join(", ")}`', '`${xs.length}`',
  '`${xs.map(x => x * 2)}`', '`${emoji}!`', '`${flag}`', '`${!flag}`',
]);
t.g('values', [
  '`${null}`', '`${undefined}`', '`${nil}`', '`${user.missing}`', '`${true}`', '`${[]}`', '`${[1, [2, 3]]}`',
  '`${[null, undefined]}`', '`${({})}`', '`${user}`', '`${xs}`', '`${-0}`', '`${1e21}`', '`${1e-7}`', '`${0.1 + 0.2}`',
  '`${NaN}`', '`${Infinity}`', '`${-Infinity}`', '`${2 ** 53}`', '`${price.toFixed(2)}`', '`${n / 7}`',
]);
t.g('escapes', [
  '`line1\\nline2`', '`tab\\there`', '`\\``', '`\\${not}`', '`$`', '`$${n}`', '`${n}$`', '`{${n}}`', '`\\\\`',
  '`\\u0041\\u{1F600}`', '`\\x41`', '`a\\\nb`', '`multi\nline`', '`\\0`', '`"quoted" and \'single\'`', '`\\uD83D\\uDE00`',
  '`\\uD800`', '`é${"e\\u0301"}`',
]);
t.g('callbacks', [
  'rows.map(r => `${r.sku}: ${r.qty}`)', 'rows.map(r => `${r.sku}${r.qty ? "" : " (sold out)"}`).join("; ")',
  'xs.map((x, i) => `#${i + 1}=${x}`).join(" ")', '`${rows.filter(r => r.qty > 0).length} in stock`',
  'xs.reduce((acc, x) => `${acc}[${x}]`, "")', 'rows.map(({ sku, qty }) => `${sku}×${qty}`)',
  '`${rows.map(r => `<${r.sku}>`).join("")}`', '`Total: ${rows.reduce((s, r) => s + r.qty, 0)}`',
]);
t.g('concat', [
  '`${name}` + `${n}`', '`${name}`.length', '`${xs}`.split(",")', '`${n}` * 2', '`${n}` === "3"', '`a` + 1 + `b`',
  '`${name.toUpperCase()}`.toLowerCase()', '`x`.repeat(3)',
]);

export default t.cases;
