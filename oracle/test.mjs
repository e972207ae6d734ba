// Checks that run.mjs reproduces the smoke corpora's expected outputs and
// that numbers.mjs prints JavaScript's number formatting.  Run: npm test --prefix oracle
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

for (const lang of ['js', 'jsonata', 'jexl']) {
  test(`smoke corpus: ${lang}`, () => {
    const got = execFileSync(process.execPath, [here('run.mjs'), '--lang', lang, here(`corpus/smoke-${lang}.jsonl`)], { encoding: 'utf8' });
    const want = readFileSync(here(`corpus/smoke-${lang}.expected.jsonl`), 'utf8');
    assert.equal(got, want);
  });
}

test('numbers.mjs', () => {
  const got = execFileSync(process.execPath, [here('numbers.mjs')], {
    input: '3ff0000000000000\n0000000000000001\n7ff0000000000000\n',
    encoding: 'utf8',
  });
  assert.equal(got, '1\n5e-324\nInfinity\n');
});
