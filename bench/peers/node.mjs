// node.mjs: the node peer of writ-bench: the same workloads, worker protocol, calibration and
// check strings as the Rust worker in bench/src/worker.rs and bench/src/workloads.rs.
// The jsonata/, jexl/ and lua/ workloads run jsonata-js, jexl and wasmoon from oracle/node_modules (npm ci in oracle/).
//
// usage: node bench/peers/node.mjs <workload> <data-file> <samples>
// prints one line: {"median_ns": <per iteration>, "check": "<string>", "samples_ns": [...], "iterations": n}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const SAMPLE_TARGET_NS = 20e6;
// Past this much sampling, stop once MIN_SAMPLES are taken: an iteration of seconds would
// otherwise hold one process for minutes (the same rule as bench/src/worker.rs).
const SLOW_SAMPLING_NS = 10e9;
const MIN_SAMPLES = 3;

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

// The JSONata workloads' expressions, the same text as the constants in bench/src/jsonata.rs.
const FILTER_SUM = '$sum(items[price > 50].price)';
const GROUP_SUM = 'items{category: $sum(price)}';
const ORDER_BY = 'items^(>price)[[0..9]].name';
const SUITE_SUM_PATH = '$sum(Account.Order.Product.(Price * Quantity))';
const SUITE_GROUP_BY = 'Account.Order{OrderID: $sum(Product.(Price*Quantity))}';
const SUITE_MAP =
  'Account.Order.Product ~> $map(λ($prod, $index, $arr) { $index+1 & "/" & $count($arr) & ": " & $prod."Product Name" })';
const SUITE_JOIN_STRINGS =
  "Employee@$e.Contact@$c[$c.ssn = $e.SSN]{ $e.(FirstName & ' ' & Surname): $join($c.Phone.number, ', ') }";
const SUITE_ORDER_BY = 'Account.Order.Product^(Quantity, >Description.Colour).Description.Colour';
const SUITE_PREDICATE = 'Account.Order.Product[$lowercase(Description.Colour) = "purple"][0].Price';
const SUITE_PARENT =
  "Account.Order.Product.Description.{ 'Item': Colour & ' ' & %.`Product Name`, 'Discounted': (%.%.OrderID = 'order103') ? %.Price / 2 : %.Price }";
const SUITE_FORMAT_NUMBER = "Account.Order.Product.$formatNumber(Price * Quantity, '#,##0.00')";
const SUITE_TRANSFORM = '$ ~> |Account.Order.Product|{"Total":Price*Quantity},["Description", "SKU"]|';
const SUITE_SELF_JOIN = '{"items": items.{"foo": "bar","count": $count($$.items[text!="" and text!="foo"].row)}}';

// The workflow workloads' expressions, the same text as the constants in bench/src/flow.rs.
const LOOP_BODY = "{ 'n': n - 1, 'sum': sum + n }";
const LOOP_UNTIL = 'n = 0';
const ROUTE_SALE = 'active and stock > 0 and price < 20';
const ROUTE_RESTOCK = 'stock < 100';
const ACT_SALE = "{ 'action': 'sale', 'id': id, 'price': price * 0.9 }";
const ACT_RESTOCK = "{ 'action': 'restock', 'id': id, 'order': 100 - stock }";
const ACT_KEEP = "{ 'action': 'keep', 'id': id }";

// The Jexl workloads' expressions, the same text as the constants in bench/src/jexl.rs.
const JEXL_FILTER = 'items[.age >= 30]';
const JEXL_COMPARE = 'age >= 30 && price < 50';
const JEXL_TERNARY = 'age > 60 ? "senior" : age > 30 ? "adult" : "young"';
const JEXL_FILTER_AND = 'items[.age >= 30 && .active]';
/** How many items the small Jexl workloads read from the front of items-10k. */
const JEXL_SMALL = 1000;

let jexlModule;
/** A fresh jexl-js 2.3.0 instance (from oracle/node_modules), loaded on first use. */
function newJexl() {
  if (!jexlModule) {
    const require = createRequire(new URL('../../oracle/package.json', import.meta.url));
    jexlModule = require('jexl');
  }
  return new jexlModule.Jexl();
}

/** A Jexl expression over `{ items }` (the first `take` items), compiled once, `evalSync` per iteration. */
function jexlOverItems(expr, take) {
  return (text) => {
    const context = { items: JSON.parse(text).slice(0, take) };
    const compiled = newJexl().compile(expr);
    let last = compiled.evalSync(context);
    return {
      iterate() {
        last = compiled.evalSync(context);
      },
      check: () => textCheck(render(last)),
    };
  };
}

/** A Jexl expression evaluated with each of the first 1,000 items as the context. */
function jexlPerItem(expr) {
  return (text) => {
    const items = JSON.parse(text).slice(0, JEXL_SMALL);
    const compiled = newJexl().compile(expr);
    const results = new Array(items.length);
    return {
      iterate() {
        for (let idx = 0; idx < items.length; idx++) {
          results[idx] = compiled.evalSync(items[idx]);
        }
      },
      check: () => resultsCheck(results),
    };
  };
}

// The Lua workloads' chunks, the same text as the constants in bench/src/lua.rs.
const LUA_PREDICATE = "return ctx['fetch:'][1].json.age >= 30 and ctx['fetch:'][1].json.price < 50";
const LUA_SUM = 'local s = 0 for i = 1, #ctx.values do s = s + ctx.values[i] end return s';
/** How many items lua/predicate/fresh-vm decides per iteration (an engine each). */
const LUA_FRESH = 100;
/** How many items lua/predicate/warm-vm decides, and how many prices lua/loop/sum-1k sums. */
const LUA_WARM = 1000;
/** The engine options of seed 000's original lua cell. */
const LUA_ENGINE_OPTIONS = { openStandardLibs: false, injectObjects: false, enableProxy: false, traceAllocations: true };

let wasmoonModule;
/** A wasmoon 1.16.0 LuaFactory (from oracle/node_modules), loaded on first use. */
function luaFactory() {
  // Node 20's V8 can hang at exit while it still tiers WebAssembly up in the background: up to
  // two wasmoon workers in three printed their answer and never ended. With dynamic tiering off,
  // wasm is compiled optimized up front (while the workload loads, untimed), and the hang is gone;
  // the flag must be on node's command line, where writ-bench puts it.
  if (!process.execArgv.includes('--no-wasm-dynamic-tiering')) {
    throw new Error('the lua/ workloads need node --no-wasm-dynamic-tiering (writ-bench passes it)');
  }
  if (!wasmoonModule) {
    const require = createRequire(new URL('../../oracle/package.json', import.meta.url));
    wasmoonModule = require('wasmoon');
  }
  return new wasmoonModule.LuaFactory();
}

/** `<true verdicts>:<textCheck of the verdicts>`, each verdict `1`, `0`, or `?` for a non-boolean. */
function verdictsCheck(results) {
  const verdicts = results.map((result) => (result === true ? '1' : result === false ? '0' : '?')).join('');
  const trues = verdicts.split('').filter((verdict) => verdict === '1').length;
  return `${trues}:${textCheck(verdicts)}`;
}

/** Each of the first `take` items' own ctx, as the original cell builds it for one `fetch:` item. */
function luaContexts(text, take) {
  return JSON.parse(text)
    .slice(0, take)
    .map((item) => ({ 'fetch:': [{ json: item }] }));
}

/**
 * The predicate per item, as the original cell evaluates: a fresh engine from one factory
 * (made once, untimed) for every evaluation, ctx set, the chunk run with doString, the engine
 * closed.
 */
async function luaFreshVm(text) {
  const contexts = luaContexts(text, LUA_FRESH);
  const factory = luaFactory();
  const results = new Array(contexts.length);
  const evaluate = async (context) => {
    const engine = await factory.createEngine(LUA_ENGINE_OPTIONS);
    try {
      engine.global.set('ctx', context);
      return await engine.doString(LUA_PREDICATE);
    } finally {
      engine.global.close();
    }
  };
  // Once untimed: it loads the WebAssembly module and says so if the chunk fails.
  await evaluate(contexts[0]);
  return {
    async: true,
    async iterate() {
      for (let idx = 0; idx < contexts.length; idx++) {
        results[idx] = await evaluate(contexts[idx]);
      }
    },
    check: () => verdictsCheck(results),
  };
}

/**
 * One engine with the original cell's options, kept for every evaluation, and `run(chunk)`,
 * its doString. wasmoon 1.16.0's doString leaves the chunk's returned value on the engine's
 * main stack, which is never grown: a few dozen calls on one engine overflow it and corrupt
 * the WebAssembly heap ("memory access out of bounds", ceifa/wasmoon#109). `run` puts the
 * stack back after each call; the original cell never meets this, as it closes its engine
 * after one evaluation.
 */
async function luaEngine() {
  const engine = await luaFactory().createEngine(LUA_ENGINE_OPTIONS);
  const top = engine.global.getTop();
  const run = async (chunk) => {
    try {
      return await engine.doString(chunk);
    } finally {
      engine.global.setTop(top);
    }
  };
  return { engine, run };
}

/** The predicate per item in one reused engine: ctx set, doString, per item. */
async function luaWarmVm(text) {
  const contexts = luaContexts(text, LUA_WARM);
  const { engine, run } = await luaEngine();
  const results = new Array(contexts.length);
  engine.global.set('ctx', contexts[0]);
  await run(LUA_PREDICATE);
  return {
    async: true,
    async iterate() {
      for (let idx = 0; idx < contexts.length; idx++) {
        engine.global.set('ctx', contexts[idx]);
        results[idx] = await run(LUA_PREDICATE);
      }
    },
    check: () => verdictsCheck(results),
  };
}

/**
 * The sum loop over `{ values }`, the prices of the first 1,000 items, in one reused engine.
 * Lua 5.4 keeps integers apart from floats; the check is the sum's JSON number text, which
 * reads the same for both.
 */
async function luaSum(text) {
  const context = { values: JSON.parse(text).slice(0, LUA_WARM).map((item) => item.price) };
  const { engine, run } = await luaEngine();
  engine.global.set('ctx', context);
  let last = await run(LUA_SUM);
  return {
    async: true,
    async iterate() {
      engine.global.set('ctx', context);
      last = await run(LUA_SUM);
    },
    check: () => render(last),
  };
}

let jsonataModule;

/** jsonata-js, loaded on first use so the other workloads run without it. */
function jsonata() {
  if (!jsonataModule) {
    const require = createRequire(new URL('../../oracle/package.json', import.meta.url));
    jsonataModule = require('jsonata');
  }
  return jsonataModule;
}

/**
 * One JSONata expression, compiled once, evaluated once per iteration (awaited: jsonata-js
 * 2.x evaluates asynchronously) over the data file's value, or over `{ [wrap]: value }`.
 * The check is `textCheck` of the result's JSON text (`undefined` for no result).
 */
function jsonataWorkload(expr, wrap) {
  return async (text) => {
    const data = JSON.parse(text);
    const input = wrap ? { [wrap]: data } : data;
    const compiled = jsonata()(expr);
    // Once untimed, so that a failing workload says so before any timing.
    let last = await compiled.evaluate(input);
    return {
      async: true,
      async iterate() {
        last = await compiled.evaluate(input);
      },
      check: () => textCheck(render(last)),
    };
  };
}

// Each workload prepares from the data file's text (untimed) and returns
// { iterate(): one timed iteration, check(): the check string of the last result }, with
// async: true when iterate returns a promise to await.
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
  'jexl/filter/items-200k': jexlOverItems(JEXL_FILTER, Infinity),
  'jexl/compare/items-1k': jexlPerItem(JEXL_COMPARE),
  'jexl/ternary/items-1k': jexlPerItem(JEXL_TERNARY),
  'jexl/filter-and/items-1k': jexlOverItems(JEXL_FILTER_AND, JEXL_SMALL),
  'lua/predicate/fresh-vm': luaFreshVm,
  'lua/predicate/warm-vm': luaWarmVm,
  'lua/loop/sum-1k': luaSum,
  'jsonata/filter-sum/items-200k': jsonataWorkload(FILTER_SUM, 'items'),
  'jsonata/group-sum/items-200k': jsonataWorkload(GROUP_SUM, 'items'),
  'jsonata/order-by/items-10k': jsonataWorkload(ORDER_BY, 'items'),
  // jsonata/order-by/items-200k is not run here: jsonata-js runs out of memory on it.
  'jsonata/suite/sum-path': jsonataWorkload(SUITE_SUM_PATH),
  'jsonata/suite/group-by': jsonataWorkload(SUITE_GROUP_BY),
  'jsonata/suite/map': jsonataWorkload(SUITE_MAP),
  'jsonata/suite/join-strings': jsonataWorkload(SUITE_JOIN_STRINGS),
  'jsonata/suite/order-by': jsonataWorkload(SUITE_ORDER_BY),
  'jsonata/suite/predicate': jsonataWorkload(SUITE_PREDICATE),
  'jsonata/suite/parent': jsonataWorkload(SUITE_PARENT),
  'jsonata/suite/format-number': jsonataWorkload(SUITE_FORMAT_NUMBER),
  'jsonata/suite/transform': jsonataWorkload(SUITE_TRANSFORM),
  'jsonata/suite/self-join': jsonataWorkload(SUITE_SELF_JOIN),
  // The same expressions in a plain loop: what a workflow runtime on jsonata-js costs at least.
  'flow/compute-loop/100k': async (text) => {
    const count = 10 * JSON.parse(text).length;
    const body = jsonata()(LOOP_BODY);
    const until = jsonata()(LOOP_UNTIL);
    let last = null;
    return {
      async: true,
      async iterate() {
        let state = { n: count, sum: 0 };
        do {
          state = await body.evaluate(state);
        } while ((await until.evaluate(state)) !== true);
        last = state;
      },
      check: () => JSON.stringify(last),
    };
  },
  'flow/routing/items-10k': async (text) => {
    const items = JSON.parse(text);
    const [sale, restock] = [ROUTE_SALE, ROUTE_RESTOCK].map((expr) => jsonata()(expr));
    const targets = [ACT_SALE, ACT_RESTOCK, ACT_KEEP].map((expr) => jsonata()(expr));
    const names = ['sale', 'restock', 'keep'];
    let counts = [0, 0, 0, 0];
    return {
      async: true,
      async iterate() {
        counts = [0, 0, 0, 0];
        for (const item of items) {
          let route = 2;
          if ((await sale.evaluate(item)) === true) route = 0;
          else if ((await restock.evaluate(item)) === true) route = 1;
          const output = await targets[route].evaluate(item);
          const taken = names.indexOf(output && output.action);
          counts[taken < 0 ? 3 : taken] += 1;
        }
      },
      check: () => `sale ${counts[0]}, restock ${counts[1]}, keep ${counts[2]}, failed ${counts[3]}`,
    };
  },
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One sample: `iterations` iterations, awaiting each when the task is asynchronous. */
async function sample(task, iterations) {
  if (task.async) {
    for (let iteration = 0; iteration < iterations; iteration++) {
      await task.iterate();
    }
  } else {
    for (let iteration = 0; iteration < iterations; iteration++) {
      task.iterate();
    }
  }
}

async function main() {
  const [name, dataFile, samplesText] = process.argv.slice(2);
  const prepare = WORKLOADS[name];
  if (!prepare) throw new Error(`unknown workload ${JSON.stringify(name)}`);
  const samples = Number(samplesText);
  if (!Number.isInteger(samples) || samples <= 0) {
    throw new Error(`samples must be a positive integer, not ${JSON.stringify(samplesText)}`);
  }
  const task = await prepare(readFileSync(dataFile, 'utf8'));

  const warmUpStart = process.hrtime.bigint();
  await sample(task, 1);
  const warmUpNs = Math.max(1, Number(process.hrtime.bigint() - warmUpStart));
  const iterations = Math.max(1, Math.floor(SAMPLE_TARGET_NS / warmUpNs));

  const samplesNs = [];
  const sampling = process.hrtime.bigint();
  while (samplesNs.length < samples) {
    const start = process.hrtime.bigint();
    await sample(task, iterations);
    samplesNs.push(Number(process.hrtime.bigint() - start) / iterations);
    if (samplesNs.length >= MIN_SAMPLES && Number(process.hrtime.bigint() - sampling) >= SLOW_SAMPLING_NS) break;
  }

  const line = { median_ns: median(samplesNs), check: task.check(), samples_ns: samplesNs, iterations };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main().catch((error) => {
  // jsonata-js throws plain objects carrying a code, not Errors.
  const text = error && error.code ? `${error.code}: ${error.message}` : error && error.stack ? error.stack : String(error);
  process.stderr.write(`${text}\n`);
  process.exitCode = 1;
});
