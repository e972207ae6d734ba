#!/usr/bin/env node
// Reads IEEE-754 double bit patterns (16 hex digits, one per line) from stdin
// and prints JavaScript's String(x) for each, one per line, in order.
//
// Usage: printf '3ff0000000000000\n' | node oracle/numbers.mjs   # prints 1

import { readFileSync } from 'node:fs';

const view = new DataView(new ArrayBuffer(8));
const HEX16 = /^[0-9a-fA-F]{16}$/;

const lines = readFileSync(0, 'latin1').split('\n');
if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

const out = new Array(lines.length);
for (let i = 0; i < lines.length; i++) {
  let line = lines[i];
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (!HEX16.test(line)) {
    process.stderr.write(`numbers.mjs: line ${i + 1}: expected 16 hex digits, got ${JSON.stringify(line)}\n`);
    process.exit(2);
  }
  view.setBigUint64(0, BigInt('0x' + line));
  out[i] = String(view.getFloat64(0));
}

process.stdout.write(out.length > 0 ? out.join('\n') + '\n' : '');
