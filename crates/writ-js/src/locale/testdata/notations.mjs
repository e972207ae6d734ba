// Writes node's answers for the notations and the unit style, as JSON Lines:
//   node notations.mjs main > notations.jsonl      (the eight main locales, every option)
//   node notations.mjs all  > notations-all.jsonl  (every locale node has, a few options)
// Each line is {"locale", "n", "options", "want"}, read by the tests in ../tests.rs.
import fs from 'node:fs';

const here = new URL('.', import.meta.url);
const read = (name) => JSON.parse(fs.readFileSync(new URL(`../data/${name}`, here), 'utf8'));
const line = (locale, n, options) =>
  JSON.stringify({ locale, n: Object.is(n, -0) ? '-0.0' : String(n), options, want: n.toLocaleString(locale, options) });

const mode = process.argv[2];
const out = [];
if (mode === 'main') {
  const locales = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'zh-CN', 'hi-IN'];
  const numbers = [0, -0, 0.5, 1, 2, 12, 123, 1000, 1234, 1500, 2000, 12345, 123456, 999950, 999999, 1e6, 1234567,
    1e9, 0.00123, -98765.4321, 1e-7, 1e21, NaN, -Infinity];
  const options = [
    { notation: 'compact' },
    { notation: 'compact', compactDisplay: 'long' },
    { notation: 'compact', maximumFractionDigits: 2 },
    { notation: 'compact', signDisplay: 'always', useGrouping: false },
    { notation: 'scientific' },
    { notation: 'scientific', maximumSignificantDigits: 2 },
    { notation: 'engineering' },
    { notation: 'engineering', minimumFractionDigits: 2, signDisplay: 'exceptZero' },
    { style: 'unit', unit: 'meter' },
    { style: 'unit', unit: 'kilometer', unitDisplay: 'narrow' },
    { style: 'unit', unit: 'liter', unitDisplay: 'long' },
    { style: 'unit', unit: 'kilogram', unitDisplay: 'long' },
    { style: 'unit', unit: 'hour', unitDisplay: 'long' },
    { style: 'unit', unit: 'acre' },
    { style: 'unit', unit: 'percent' },
  ];
  for (const locale of locales) for (const o of options) for (const n of numbers) out.push(line(locale, n, o));
} else if (mode === 'all') {
  const locales = [...read('node-languages.json'), ...read('script-locales.json')].sort();
  const cases = [
    [{ notation: 'compact' }, [1234.5, -1234567, 2]],
    [{ notation: 'compact', compactDisplay: 'long' }, [1234.5, -1234567, 2]],
    [{ notation: 'scientific' }, [-1.5e-7, 12345]],
    [{ notation: 'engineering' }, [12345]],
    [{ style: 'unit', unit: 'meter' }, [1, 12.5]],
    [{ style: 'unit', unit: 'meter', unitDisplay: 'long' }, [1, 2, 12.5]],
    [{ style: 'unit', unit: 'hour', unitDisplay: 'narrow' }, [5]],
    [{ style: 'unit', unit: 'liter', unitDisplay: 'long' }, [1, 5]],
  ];
  for (const locale of locales) for (const [o, numbers] of cases) for (const n of numbers) out.push(line(locale, n, o));
} else {
  console.error('usage: node notations.mjs main|all');
  process.exit(2);
}
console.log(out.join('\n'));
