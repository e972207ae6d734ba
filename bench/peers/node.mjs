// node.mjs: the node peer of writ-bench: the same workloads, worker protocol, calibration and
// check strings as the Rust worker in bench/src/worker.rs and bench/src/workloads.rs.
//
// usage: node bench/peers/node.mjs <workload> <data-file> <samples>
// prints one line: {"median_ns": <per iteration>, "check": "<string>", "samples_ns": [...], "iterations": n}

import { readFileSync } from 'node:fs';

const SAMPLE_TARGET_NS = 20e6;

/** 32-bit FNV-1a over the UTF-8 bytes of `text`. */
function fnv1a(text) {
  const bytes = Buffer.from(text, 'utf8');
  let hash = 0x811c9dc5;
  for (let idx = 0; idx < bytes.length; idx++) {
    hash = Math.imul(hash ^ bytes[idx], 0x01000193) >>> 0;
  }
  return { length: bytes.length, hash };
}

/** `<length in bytes>:<FNV-1a as 8 hex digits>`, the check of a text output. */
function textCheck(text) {
  const { length, hash } = fnv1a(text);
  return `${length}:${hash.toString(16).padStart(8, '0')}`;
}

/** `<rows>:<sum of price in row order>`. */
function itemsCheck(rows) {
  let sum = 0;
  for (let idx = 0; idx < rows.length; idx++) {
    if (typeof rows[idx].price === 'number') sum += rows[idx].price;
  }
  return `${rows.length}:${String(sum)}`;
}

// The js workloads' expressions, the same text as the constants in bench/src/workloads.rs.
const CHECK_SIMPLE = 'root.count > 0';
const MEMBER_READ = 'root.user.name';
const TEMPLATE_TWO = '`${root.user.name} has ${root.count} items`';
const OBJECT_LITERAL = '({ id: root.user.id, name: root.user.name, total: root.count * 2 })';
const FILTER_ROWS = 'rows.filter(r => r.price > 50)';
const MAP_ROWS = 'rows.map(r => r.price * r.qty)';
const REDUCE_ROWS = 'rows.reduce((sum, r) => sum + r.price * r.qty, 0)';
const FILTER_COUNT_ROWS = 'rows.filter(r => r.price > 50).length';
const TABLE = [
  'price * qty',
  '`${name} × ${qty}`',
  'status === "open" && qty > 0',
  'tags.length > 0 ? tags[0] : "none"',
  '({ id, total: price * qty, label: name })',
];
const ROW_NAMES = ['id', 'name', 'price', 'qty', 'status', 'tags'];

/** The JIT ceiling: `expr` compiled once by V8 as a function of the context's names. */
function compileJs(names, expr) {
  return new Function(...names, '"use strict"; return (' + expr + ')');
}

/** One evaluation's rendering, as writ renders it: the JSON text, or `undefined`. */
function render(value) {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** `textCheck` over the renderings of `results`, one per line. */
function resultsCheck(results) {
  return textCheck(results.map(render).join('\n'));
}

/** One small expression over each row's scope `{ root: { count: qty, user: { id, name } } }`. */
function scopeWorkload(expr) {
  return (text) => {
    const scopes = JSON.parse(text).map((row) => ({ root: { count: row.qty, user: { id: row.id, name: row.name } } }));
    const fn = compileJs(['root'], expr);
    const results = new Array(scopes.length);
    return {
      iterate() {
        for (let idx = 0; idx < scopes.length; idx++) {
          results[idx] = fn(scopes[idx].root);
        }
      },
      check: () => resultsCheck(results),
    };
  };
}

/** One expression over `{ rows }`, once per iteration. */
function listWorkload(expr) {
  return (text) => {
    const context = { rows: JSON.parse(text) };
    const fn = compileJs(['rows'], expr);
    let last;
    return {
      iterate() {
        last = fn(context.rows);
      },
      check: () => resultsCheck([last]),
    };
  };
}

// Each workload prepares from the data file's text (untimed) and returns
// { iterate(): one timed iteration, check(): the check string of the last result }.
const WORKLOADS = {
  'json/parse/items-20k': (text) => {
    let last = [];
    return {
      iterate() {
        last = JSON.parse(text);
      },
      check: () => itemsCheck(last),
    };
  },
  'json/stringify/items-20k': (text) => {
    const value = JSON.parse(text);
    let last = '';
    return {
      iterate() {
        last = JSON.stringify(value);
      },
      check: () => textCheck(last),
    };
  },
  'value/filter-sum/items-200k': (text) => {
    const items = JSON.parse(text);
    let last = 0;
    return {
      iterate() {
        let sum = 0;
        for (let idx = 0; idx < items.length; idx++) {
          const price = items[idx].price;
          if (price > 50) sum += price;
        }
        last = sum;
      },
      check: () => String(last),
    };
  },
  'number/to-string/100k': (text) => {
    const numbers = JSON.parse(text);
    let last = 0;
    return {
      iterate() {
        // Every string is used: its length counts, as do the separators writ writes.
        let length = numbers.length - 1;
        for (let idx = 0; idx < numbers.length; idx++) {
          length += String(numbers[idx]).length;
        }
        last = length;
      },
      check() {
        const joined = numbers.map((number) => String(number)).join(',');
        if (joined.length !== last) {
          throw new Error(`timed length ${last} differs from the joined length ${joined.length}`);
        }
        return textCheck(joined);
      },
    };
  },
  'js/check/simple': scopeWorkload(CHECK_SIMPLE),
  'js/member/read': scopeWorkload(MEMBER_READ),
  'js/template/two': scopeWorkload(TEMPLATE_TWO),
  'js/object/literal': scopeWorkload(OBJECT_LITERAL),
  'js/filter/rows-1k': listWorkload(FILTER_ROWS),
  'js/map/rows-1k': listWorkload(MAP_ROWS),
  'js/reduce/rows-1k': listWorkload(REDUCE_ROWS),
  'js/table/rows-1k-x5': (text) => {
    // Each cell is called with the row's fields as its arguments, as writ reads the row's names.
    const rows = JSON.parse(text);
    const [cell0, cell1, cell2, cell3, cell4] = TABLE.map((expr) => compileJs(ROW_NAMES, expr));
    const results = new Array(rows.length * TABLE.length);
    return {
      iterate() {
        let out = 0;
        for (let idx = 0; idx < rows.length; idx++) {
          const row = rows[idx];
          results[out++] = cell0(row.id, row.name, row.price, row.qty, row.status, row.tags);
          results[out++] = cell1(row.id, row.name, row.price, row.qty, row.status, row.tags);
          results[out++] = cell2(row.id, row.name, row.price, row.qty, row.status, row.tags);
          results[out++] = cell3(row.id, row.name, row.price, row.qty, row.status, row.tags);
          results[out++] = cell4(row.id, row.name, row.price, row.qty, row.status, row.tags);
        }
      },
      check: () => resultsCheck(results),
    };
  },
  'js/filter/rows-200k': listWorkload(FILTER_COUNT_ROWS),
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function main() {
  const [name, dataFile, samplesText] = process.argv.slice(2);
  const prepare = WORKLOADS[name];
  if (!prepare) throw new Error(`unknown workload ${JSON.stringify(name)}`);
  const samples = Number(samplesText);
  if (!Number.isInteger(samples) || samples <= 0) {
    throw new Error(`samples must be a positive integer, not ${JSON.stringify(samplesText)}`);
  }
  const task = prepare(readFileSync(dataFile, 'utf8'));

  const warmUpStart = process.hrtime.bigint();
  task.iterate();
  const warmUpNs = Math.max(1, Number(process.hrtime.bigint() - warmUpStart));
  const iterations = Math.max(1, Math.floor(SAMPLE_TARGET_NS / warmUpNs));

  const samplesNs = [];
  for (let sample = 0; sample < samples; sample++) {
    const start = process.hrtime.bigint();
    for (let iteration = 0; iteration < iterations; iteration++) {
      task.iterate();
    }
    samplesNs.push(Number(process.hrtime.bigint() - start) / iterations);
  }

  const line = { median_ns: median(samplesNs), check: task.check(), samples_ns: samplesNs, iterations };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main();
