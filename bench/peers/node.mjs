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
