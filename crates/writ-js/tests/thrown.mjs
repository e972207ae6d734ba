#!/usr/bin/env node
// Runs the cases of tests/thrown.jsonl (JSON Lines on stdin) as plain JavaScript and prints, for
// each, one JSON line: {"id", "thrown": the error's constructor name, or null when nothing was
// thrown, "message"}. tests/thrown.rs compares the names with the kinds the table pins.
//
// A case runs as oracle/run.mjs runs one: its data keys become parameters of a strict-mode
// function returning the expression.
//
// Node 20 lacks Object.groupBy and Math.sumPrecise. Where it has none, the two are defined here by
// the steps of their specifications that can throw, each throwing the error the specification
// names; on a newer node the real built-ins answer.

import { readFileSync } from 'node:fs';

if (typeof Object.groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    // GroupBy: RequireObjectCoercible(items), IsCallable(callback), then GetIterator(items).
    value(items, callback) {
      if (items === null || items === undefined) throw new TypeError('Object.groupBy called on null or undefined');
      if (typeof callback !== 'function') throw new TypeError(`${String(callback)} is not a function`);
      const groups = Object.create(null);
      let index = 0;
      for (const item of items) {
        const key = String(callback(item, index++));
        (groups[key] ??= []).push(item);
      }
      return groups;
    },
    writable: true,
    configurable: true,
  });
}

if (typeof Math.sumPrecise !== 'function') {
  Object.defineProperty(Math, 'sumPrecise', {
    // Math.sumPrecise: RequireObjectCoercible(items), GetIterator(items), and a TypeError for
    // the first item that is not a Number. Only the errors matter here, not the exact sum.
    value(items) {
      if (items === null || items === undefined) throw new TypeError('Math.sumPrecise called on null or undefined');
      let total = 0;
      for (const item of items) {
        if (typeof item !== 'number') throw new TypeError('Math.sumPrecise: every item must be a number');
        total += item;
      }
      return total;
    },
    writable: true,
    configurable: true,
  });
}

function run(testCase) {
  const data = testCase.data ?? {};
  const names = Object.keys(data);
  try {
    const fn = new Function(...names, '"use strict"; return (' + testCase.expr + '\n);');
    fn(...names.map((name) => data[name]));
  } catch (err) {
    return { id: testCase.id, thrown: err?.constructor?.name ?? String(err), message: String(err?.message) };
  }
  return { id: testCase.id, thrown: null };
}

for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  process.stdout.write(JSON.stringify(run(JSON.parse(line))) + '\n');
}
