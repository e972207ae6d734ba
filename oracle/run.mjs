#!/usr/bin/env node
// writ oracle: evaluates a JSON Lines corpus with a reference implementation
// and prints one result envelope per case, in the format of writ's CLI batch mode.
//
// Usage: node oracle/run.mjs --lang <js|jsonata|jexl> <FILE|->

import { readFileSync } from 'node:fs';
import jsonata from 'jsonata';
import jexlPackage from 'jexl';

// jexl 2.3.0 is CommonJS: module.exports is a default Jexl instance with the
// class attached as the `Jexl` property.
const { Jexl } = jexlPackage;

const USAGE = 'usage: node oracle/run.mjs --lang <js|jsonata|jexl> <FILE|->';
const LANGS = new Set(['js', 'jsonata', 'jexl']);

// ---------------------------------------------------------------- envelopes

function okEnvelope(result, replacer) {
  let text;
  try {
    text = JSON.stringify(result, replacer);
  } catch (err) {
    // BigInt, cyclic structures, a throwing toJSON or getter.
    return errorEnvelope('result-unserializable', messageOf(err));
  }
  if (text === undefined) return '{"ok":true,"undefined":true}';
  return '{"ok":true,"value":' + text + '}';
}

function errorEnvelope(code, message) {
  return JSON.stringify({ ok: false, error: { code, message } });
}

function messageOf(err) {
  try {
    if (err !== null && (typeof err === 'object' || typeof err === 'function')) {
      if (typeof err.message === 'string') return err.message;
    }
    return String(err);
  } catch {
    return 'unprintable thrown value';
  }
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ---------------------------------------------------------------- newer built-ins

// Seed 004's language has Object.groupBy, Math.sumPrecise and Math.f16round, which node 20
// lacks. They are defined here, from their specifications, only where node has no own.

function groupBy(items, callback) {
  const groups = Object.create(null);
  let index = 0;
  for (const item of items) {
    const key = callback(item, index++);
    const name = typeof key === 'symbol' ? key : String(key);
    if (Object.hasOwn(groups, name)) groups[name].push(item);
    else Object.defineProperty(groups, name, { value: [item], enumerable: true, writable: true, configurable: true });
  }
  return groups;
}

// The double nearest to units × 2^-1074 (ties to even), for a non-negative BigInt `units`.
function unitsToDouble(units) {
  const bits = units.toString(2).length;
  if (bits <= 53) return Number(units) * 2 ** -1074;
  let shift = bits - 53;
  let q = units >> BigInt(shift);
  const rem = units - (q << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  if (q === 1n << 53n) {
    q >>= 1n;
    shift += 1;
  }
  const e = shift - 1074;
  if (e > 971) return Infinity;
  return Number(q) * 2 ** e;
}

function doubleToUnits(x) {
  // x = m × 2^e exactly, with integer m; in units of 2^-1074.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exponent = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let shift;
  if (exponent === 0) shift = 0;
  else {
    mantissa |= 1n << 52n;
    shift = exponent - 1;
  }
  return mantissa << BigInt(shift);
}

function sumPrecise(items) {
  let sawPosInf = false;
  let sawNegInf = false;
  let sawNaN = false;
  let allNegZero = true;
  let total = 0n;
  for (const item of items) {
    if (typeof item !== 'number') throw new TypeError('Math.sumPrecise: every item must be a number');
    if (Number.isNaN(item)) sawNaN = true;
    else if (item === Infinity) sawPosInf = true;
    else if (item === -Infinity) sawNegInf = true;
    else {
      if (!Object.is(item, -0)) allNegZero = false;
      const units = doubleToUnits(item);
      total += item < 0 ? -units : units;
    }
  }
  if (sawNaN || (sawPosInf && sawNegInf)) return NaN;
  if (sawPosInf) return Infinity;
  if (sawNegInf) return -Infinity;
  if (allNegZero) return -0;
  if (total === 0n) return 0;
  return total < 0n ? -unitsToDouble(-total) : unitsToDouble(total);
}

function f16round(value) {
  const x = Number(value);
  if (Number.isNaN(x) || x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x > 0 ? Infinity : -Infinity;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  const step = e < -14 ? 2 ** -24 : 2 ** (e - 10);
  const y = a / step;
  let r = Math.floor(y);
  const frac = y - r;
  if (frac > 0.5 || (frac === 0.5 && r % 2 === 1)) r += 1;
  const rounded = r * step;
  return x < 0 ? -rounded : rounded;
}

if (typeof Object.groupBy !== 'function') Object.defineProperty(Object, 'groupBy', { value: groupBy, writable: true, configurable: true });
if (typeof Math.sumPrecise !== 'function') Object.defineProperty(Math, 'sumPrecise', { value: sumPrecise, writable: true, configurable: true });
if (typeof Math.f16round !== 'function') Object.defineProperty(Math, 'f16round', { value: f16round, writable: true, configurable: true });

// ---------------------------------------------------------------- js

// A key becomes a parameter when V8 accepts it as a strict-mode parameter name
// (this rules out reserved words, `eval`, `arguments`, and non-identifiers).
const identifierCache = new Map();
function isParameterName(name) {
  let ok = identifierCache.get(name);
  if (ok === undefined) {
    ok = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name);
    if (ok) {
      try {
        new Function(name, '"use strict";');
      } catch {
        ok = false;
      }
    }
    identifierCache.set(name, ok);
  }
  return ok;
}

function runJs(tc) {
  const data = tc.data === undefined ? {} : tc.data;
  const names = [];
  const values = [];
  for (const key of Object.keys(data)) {
    if (isParameterName(key)) {
      names.push(key);
      values.push(data[key]);
    }
  }
  let fn;
  try {
    fn = new Function(...names, '"use strict"; return (' + tc.expr + '\n);');
  } catch (err) {
    if (err instanceof SyntaxError) return errorEnvelope('expression-syntax', messageOf(err));
    return jsError(err);
  }
  let result;
  try {
    result = fn(...values);
  } catch (err) {
    return jsError(err);
  }
  return okEnvelope(result);
}

// A ReferenceError names a name nothing provides (unknown-reference), except a read of a
// binding in its temporal dead zone (a default that reads its own or a later parameter), which
// is a failure while running.
function jsError(err) {
  if (err instanceof ReferenceError && !/before initialization/.test(err.message)) return errorEnvelope('unknown-reference', messageOf(err));
  return errorEnvelope('expression-runtime', messageOf(err));
}

// ---------------------------------------------------------------- jsonata

// JSONata represents lambdas, partial applications and built-in functions as
// plain objects flagged `_jsonata_lambda` / `_jsonata_function` (lambdas hold a
// cyclic environment).  Serialize them the way JSON.stringify serializes a JS
// function: omitted in objects, null in arrays, undefined at the top level.
function jsonataReplacer(_key, value) {
  if (value !== null && typeof value === 'object'
      && (value._jsonata_lambda === true || value._jsonata_function === true)) {
    return undefined;
  }
  return value;
}

async function runJsonata(tc) {
  let result;
  try {
    const e = jsonata(tc.expr);
    result = await e.evaluate(tc.data, tc.bindings);
  } catch (err) {
    const code = err !== null && typeof err === 'object' && typeof err.code === 'string'
      ? err.code
      : 'jsonata-error';
    return errorEnvelope(code, messageOf(err));
  }
  return okEnvelope(result, jsonataReplacer);
}

// ---------------------------------------------------------------- jexl

const TRANSFORMS = {
  upper: (v) => String(v).toUpperCase(),
  lower: (v) => String(v).toLowerCase(),
  split: (v, sep) => String(v).split(sep),
  join: (v, sep) => {
    if (!Array.isArray(v)) throw new Error('join expects an array');
    return v.join(sep);
  },
  length: (v) => {
    if (v === null || v === undefined) throw new Error('length of null or undefined');
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    return undefined;
  },
};

function runJexl(tc) {
  const jexl = new Jexl();
  if (tc.transforms !== undefined) {
    for (const name of tc.transforms) {
      if (!Object.hasOwn(TRANSFORMS, name)) {
        return errorEnvelope('unknown-transform', `unknown transform: ${name}`);
      }
      jexl.addTransform(name, TRANSFORMS[name]);
    }
  }
  let result;
  try {
    result = jexl.evalSync(tc.expr, tc.data === undefined ? {} : tc.data);
  } catch (err) {
    return errorEnvelope('jexl-error', messageOf(err));
  }
  return okEnvelope(result);
}

// ---------------------------------------------------------------- driver

function invalid(lineNo, what) {
  return errorEnvelope('batch-line-invalid', `line ${lineNo}: ${what}`);
}

// Returns an error envelope for a malformed case, or null when it can be run.
function checkCase(lang, tc, lineNo) {
  if (!isPlainObject(tc)) return invalid(lineNo, 'not a JSON object');
  if (!Object.hasOwn(tc, 'expr')) return invalid(lineNo, 'missing "expr"');
  if (typeof tc.expr !== 'string') return invalid(lineNo, '"expr" is not a string');
  if (tc.bindings !== undefined && !isPlainObject(tc.bindings)) {
    return invalid(lineNo, '"bindings" is not an object');
  }
  if (tc.transforms !== undefined) {
    if (!Array.isArray(tc.transforms) || !tc.transforms.every((t) => typeof t === 'string')) {
      return invalid(lineNo, '"transforms" is not an array of strings');
    }
  }
  if (lang === 'js' && tc.data !== undefined && !isPlainObject(tc.data)) {
    return invalid(lineNo, '"data" is not an object');
  }
  return null;
}

async function runLine(lang, line, lineNo) {
  let tc;
  try {
    tc = JSON.parse(line);
  } catch {
    return invalid(lineNo, 'not valid JSON');
  }
  const bad = checkCase(lang, tc, lineNo);
  if (bad !== null) return bad;
  switch (lang) {
    case 'js':
      return runJs(tc);
    case 'jsonata':
      return runJsonata(tc);
    case 'jexl':
      return runJexl(tc);
  }
  throw new Error(`unreachable language ${lang}`);
}

function usage(message) {
  process.stderr.write(`run.mjs: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  let lang;
  let input;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--lang') {
      if (i + 1 >= argv.length) usage('--lang needs a value');
      lang = argv[++i];
    } else if (arg.startsWith('--lang=')) {
      lang = arg.slice('--lang='.length);
    } else if (arg === '-h' || arg === '--help') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    } else if (arg.startsWith('-') && arg !== '-') {
      usage(`unknown option ${arg}`);
    } else if (input === undefined) {
      input = arg;
    } else {
      usage(`unexpected argument ${arg}`);
    }
  }
  if (lang === undefined) usage('missing --lang');
  if (!LANGS.has(lang)) usage(`unknown language ${JSON.stringify(lang)} (expected js, jsonata or jexl)`);
  if (input === undefined) usage('missing input file (use - for stdin)');
  return { lang, input };
}

function readInput(input) {
  try {
    return readFileSync(input === '-' ? 0 : input, 'utf8');
  } catch (err) {
    usage(`cannot read ${input === '-' ? 'stdin' : input}: ${err.message}`);
  }
}

async function main() {
  const { lang, input } = parseArgs(process.argv.slice(2));
  let text = readInput(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    out.push(await runLine(lang, line, i + 1));
    if (out.length >= 512) {
      process.stdout.write(out.join('\n') + '\n');
      out.length = 0;
    }
  }
  if (out.length > 0) process.stdout.write(out.join('\n') + '\n');
  process.exitCode = 0;
}

await main();
