// The refusal corpus: expressions writ must refuse or stop, each with writ's expected answer.
// Unlike the differential corpus, nothing here is checked against node: node would run most
// of these. Files (refusals/<name>.jsonl): prototype, harmless, mutation, grammar, globals,
// host, budget.

const G = 'guardrail-violation';
const SYNTAX = 'expression-syntax';
const UNKNOWN = 'unknown-reference';
const RUNTIME = 'expression-runtime';
const BUDGET = 'budget-exceeded';
const INVALID = 'invalid-arguments';

const fail = (code) => ({ ok: false, error: { code } });
const ok = (value) => (value === undefined ? { ok: true, undefined: true } : { ok: true, value });

// Builds one file's cases. Each item: expr | [expr, code] | { expr, code?, data?, limits?, expect? }.
function file(prefix, defaultCode, items, shared = {}) {
  const cases = [];
  const counts = new Map();
  for (const item of items) {
    const spec = typeof item === 'string' ? { expr: item } : Array.isArray(item) ? { expr: item[0], code: item[1] } : item;
    const group = spec.group ?? 'case';
    const n = (counts.get(group) ?? 0) + 1;
    counts.set(group, n);
    const tc = { id: `ref-${prefix}-${group}-${n}`, expr: spec.expr };
    const data = { ...shared, ...(spec.data ?? {}) };
    const used = Object.fromEntries(Object.entries(data).filter(([k]) => new RegExp(`(?<![\\w$])${k.replace(/\$/g, '\\$')}(?![\\w$])`).test(spec.expr)));
    if (Object.keys(used).length > 0) tc.data = used;
    if (spec.limits) tc.limits = spec.limits;
    tc.expect = spec.expect ?? fail(spec.code ?? defaultCode);
    cases.push(tc);
  }
  return cases;
}
// A group of cases: each item is an expression, or an object that may set its own code,
// data, limits or expected answer.
const grouped = (group, code, items) =>
  items.map((item) => (typeof item === 'string' ? { group, code, expr: item } : { group, code, ...item }));

const shared = { o: { a: 1, nested: { b: 2 } }, xs: [1, 2, 3], objs: [{ a: 1 }], s: 'abc', n: 5, flag: true, k: 'map', key: '__proto__', ck: 'constructor' };

// A key spelled with String.fromCharCode, so that no name appears in the source.
const codes = (word) => `String.fromCharCode(${[...word].map((c) => c.charCodeAt(0)).join(', ')})`;

const prototype = file('proto', G, [
  ...grouped('array', G, ['[].constructor', 'xs.constructor', 'xs["constructor"]', 'xs.__proto__', 'xs["__pro" + "to__"]', `xs[${codes('constructor')}]`, 'xs[key]', 'xs[ck]', 'xs.map.constructor', 'objs.constructor', '[].concat.constructor', 'Object.entries(o).constructor', 'xs.length.constructor']),
  ...grouped('string', G, ['"".constructor', '"".constructor.constructor', 's.constructor', 's.__proto__', 's["__proto__"]', `s[${codes('constructor')}]`, 's[ck]', '"".toString.constructor', 's.length.constructor', '`${s}`.constructor']),
  ...grouped('primitive', G, ['(5).constructor', 'n.constructor', 'n.__proto__', 'true.constructor', 'flag.constructor', '(1).toFixed.constructor', 'NaN.constructor', 'Infinity.__proto__', 'o.a.constructor', 'xs[0].constructor', 'xs.map(x => x.constructor)', 'xs.map(x => x.__proto__)']),
  ...grouped('namespace', G, ['Math.constructor', 'Math.__proto__', 'JSON.constructor', 'JSON.__proto__', 'Object.prototype', 'Object.constructor', 'Array.prototype', 'Number.prototype', 'String.prototype', 'Boolean.prototype', 'Date.prototype', 'Math["constructor"]', `Math[${codes('constructor')}]`, 'Object["prototype"]', 'Number.constructor', 'parseInt.constructor', 'Object.getPrototypeOf(o)', 'Object.getPrototypeOf(xs)', 'Object.setPrototypeOf(o, null)', 'Object.create(null)', 'Object.getOwnPropertyNames(o)', 'Object.getOwnPropertyDescriptor(o, "a")', 'Object.prototype.hasOwnProperty.call(o, "a")', 'Array.prototype.map.call(xs, x => x)', 'Math.max.apply(null, xs)', 'Math.max.call(null, 1)', 'Math.max.bind(null)', 'JSON.parse.constructor', 'Date.parse.call(null, "2024")', 'String.fromCharCode.constructor']),
  ...grouped('chain', RUNTIME, ['o.constructor.constructor', 'o["constructor"]["constructor"]', 'o.__proto__.__proto__', 'o.constructor.prototype', 'o[ck][ck]("return this")()', 'o.__proto__.toString', `o[${codes('constructor')}][${codes('constructor')}]`, 'objs[0].constructor.name']),
  ...grouped('objmethod', G, ['o.constructor("return 1")', 'o.toString()', 'o.hasOwnProperty("a")', 'o.valueOf()', 'o.toLocaleString()', 'o.isPrototypeOf(o)']),
  ...grouped('keys', G, ['o[Math]']),
], shared);

const harmless = file('safe', G, [
  // A computed key is converted to text first: an array key reads "constructor", an own name
  // that a plain object does not have.
  { group: 'keys', expr: 'o[["constructor"]]', expect: ok() },
  // writ writes and drops values of any depth without recursion, so deep results leave as in
  // JavaScript.
  { group: 'deep', expr: 'Array.from({ length: 500 }).reduce((acc) => [acc], [])', expect: ok(Array.from({ length: 500 }).reduce((acc) => [acc], [])) },
  { group: 'deep', expr: 'Array.from({ length: 300 }).reduce((acc) => ({ a: acc }), null)', expect: ok(Array.from({ length: 300 }).reduce((acc) => ({ a: acc }), null)) },
  { expr: '({}).constructor', expect: ok() }, { expr: 'o.constructor', expect: ok() }, { expr: 'o.__proto__', expect: ok() },
  { expr: 'o["__pro" + "to__"]', expect: ok() }, { expr: `o[${codes('__proto__')}]`, expect: ok() }, { expr: `o[${codes('constructor')}]`, expect: ok() },
  { expr: 'o.toString', expect: ok() }, { expr: 'o.valueOf', expect: ok() }, { expr: 'o.hasOwnProperty', expect: ok() }, { expr: 'o.isPrototypeOf', expect: ok() },
  { expr: 'o.__defineGetter__', expect: ok() }, { expr: 'o.__lookupGetter__', expect: ok() }, { expr: 'o.propertyIsEnumerable', expect: ok() },
  { expr: 'o.toLocaleString', expect: ok() }, { expr: 'o.prototype', expect: ok() }, { expr: 'o[key]', expect: ok() }, { expr: 'o[ck]', expect: ok() },
  { expr: 'o?.constructor?.constructor', expect: ok() }, { expr: '({}).constructor ?? "none"', expect: ok('none') }, { expr: 'typeof o.constructor', expect: ok('undefined') },
  { expr: 'o.constructor === undefined', expect: ok(true) }, { expr: 'o.__proto__ === undefined', expect: ok(true) }, { expr: 'objs.map(x => x.constructor)', expect: ok([null]) },
  { expr: 'objs.map(x => x[key])', expect: ok([null]) }, { expr: 'JSON.parse("{}").constructor', expect: ok() }, { expr: 'Object.fromEntries([]).constructor', expect: ok() },
  { expr: 'o.nested.constructor', expect: ok() }, { expr: 'o.nested.__proto__', expect: ok() },
  { expr: '({ ["__proto__"]: { polluted: 1 } }).polluted', expect: ok() }, { expr: '({ ["__proto__"]: { polluted: 1 } })', expect: ok(JSON.parse('{"__proto__": {"polluted": 1}}')) },
  { expr: 'JSON.parse("{\\"__proto__\\": {\\"polluted\\": 1}}").polluted', expect: ok() }, { expr: '({ ...JSON.parse("{\\"__proto__\\": {\\"p\\": 1}}") }).p', expect: ok() },
  { expr: 'Object.fromEntries([["__proto__", { p: 1 }]]).p', expect: ok() }, { expr: '[({ [key]: { p: 1 } }), ({}).p]', expect: ok(JSON.parse('[{"__proto__": {"p": 1}}, null]')) },
  { expr: 'Object.keys({ [key]: 1 })', expect: ok(['__proto__']) }, { expr: 'Object.hasOwn({}, "constructor")', expect: ok(false) },
  { expr: 'Object.hasOwn({ [key]: 1 }, "__proto__")', expect: ok(true) }, { expr: 'Object.groupBy([1], () => "__proto__").__proto__', expect: ok([1]) },
  { expr: 'JSON.parse("{\\"constructor\\": {\\"prototype\\": {\\"x\\": 1}}}").constructor.prototype.x', expect: ok(1) },
  { expr: '({ constructor: 1 }).constructor', expect: ok(1) }, { expr: '({ ...o, [ck]: "own" })[ck]', expect: ok('own') },
  { expr: 'Object.fromEntries([[key, 1]])[key]', expect: ok(1) }, { expr: 'Object.entries({ [key]: 2 })', expect: ok([['__proto__', 2]]) },
  { expr: 'JSON.stringify({ [key]: { x: 1 } })', expect: ok('{"__proto__":{"x":1}}') }, { expr: '({ ...{ [key]: { p: 1 } } }).p', expect: ok() },
  { expr: 'xs.map(x => ({ [key]: x }))[0].__proto__', expect: ok(1) }, { expr: 'Object.keys(o).includes("constructor")', expect: ok(false) },
  // Names that JavaScript itself reads as undefined (no own or inherited member of that name).
  { expr: 'o[null]', expect: ok() }, { expr: 'o[undefined]', expect: ok() }, { expr: 'o[{}]', expect: ok() }, { expr: 'o[[]]', expect: ok() }, { expr: 'o[xs]', expect: ok() }, { expr: 'xs["01"]', expect: ok() }, { expr: 'xs["-0"]', expect: ok() }, { expr: 'xs["1.0"]', expect: ok() }, { expr: 's["1x"]', expect: ok() }, { expr: 'xs.foo', expect: ok() }, { expr: '[].foo', expect: ok() }, { expr: '"".foo', expect: ok() }, { expr: 's.foo', expect: ok() }, { expr: 'n.foo', expect: ok() }, { expr: '(5).foo', expect: ok() }, { expr: 'flag.x', expect: ok() }, { expr: 'xs[`length${""}x`]', expect: ok() }, { expr: 'xs["len" + "gth2"]', expect: ok() }, { expr: 'xs.prototype', expect: ok() }, { expr: 'objs[0].a.push', expect: ok() }, { expr: '[9, 8]["0" + "1"]', expect: ok() },
], shared);

const mutation = file('mut', G, [
  ...grouped('method', G, ['xs.push(4)', 'xs.pop()', 'xs.shift()', 'xs.unshift(0)', 'xs.splice(0, 1)', 'xs.sort()', 'xs.sort((a, b) => a - b)', 'xs.reverse()', 'xs.fill(0)', 'xs.copyWithin(0, 1)', 'xs["pu" + "sh"](4)', 'xs[`push`](4)', 'xs["sort"]()', 'xs[k.replace("map", "push")](4)', 'xs.push', '[].push(1)', '[3, 1, 2].sort()', 'xs.reverse().length', 'xs.concat([]).push(1)']),
  ...grouped('assign', G, ['n = 1', 'o.a = 2', 'xs[0] = 9', 'o["a"] = 3', 'n += 1', 'n -= 1', 'n *= 2', 'n ||= 1', 'n &&= 1', 'n ??= 1', 'n++', 'n--', '++n', '--n', 'o.a++', 'delete o.a', 'delete xs[0]', '[n] = [1]', '({ a: n } = o)', 'xs.map(x => x = 1)', 'xs.map(x => x++)', 'xs.map(x => (o.a = x))', 'o.nested.b = 3', 'o.__proto__ = null', 'o["__proto__"].polluted = 1']),
  ...grouped('object', G, ['Object.assign(o, { b: 2 })', 'Object.assign({}, o)', 'Object.defineProperty(o, "b", { value: 1 })', 'Object.defineProperties(o, {})', 'Object.freeze(o)', 'Object.seal(o)', 'Object.preventExtensions(o)', 'Object.setPrototypeOf(o, {})']),
], shared);

const deep = (open, middle, close, times) => open.repeat(times) + middle + close.repeat(times);
const grammar = file('gram', G, [
  ...grouped('new', G, ['new Date()', 'new Date(0).getTime()', 'new Array(3)', 'new Map()', 'new Set([1])', 'new Object()', 'new Function("return 1")', 'new Number(1)', 'new o.constructor()']),
  ...grouped('this', G, ['this', 'this.x', 'xs.map(x => this)']),
  ...grouped('function', G, ['(function () { return 1 })', 'xs.map(function (x) { return x })', '(function () {})()', 'xs.map(function f(x) { return f })', '(class {})', '(class A { static x = 1 }).x']),
  ...grouped('regex', G, ['/a/', '/a/.test(s)', 's.replace(/a/, "b")', 's.split(/b/)', 's.match(/a/)', '/(a+)+$/.test("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")']),
  ...grouped('bigint', G, ['1n', '0n + 1n', '10n ** 20n', '123456789012345678901234567890n']),
  ...grouped('operator', G, ['"a" in o', 'o instanceof Object', 'xs instanceof Array', '1 & 2', '1 | 2', '1 ^ 3', '~1', '1 << 2', '-8 >> 1', '-8 >>> 1', 'n | 0', '~~n', 'void 0', 'void n', '(1, 2)', 'xs.map(x => (x, 1))', '(o.a, o.nested)']),
  ...grouped('template', G, ['String.raw`a\\nb`', 'n`x`', 'xs.map`x`']),
  ...grouped('import', G, ['import("fs")', 'import("data:text/javascript,export default 1")']),
  ...grouped('optcall', G, ['xs.map?.(x => x)', 'o.a?.()', 'n?.()', 'xs.at?.(0)', 'o.nested.b?.()']),
  ...grouped('holes', G, ['[1, , 2]', '[,]', '[, 1]', 'xs.concat([, 1])']),
  ...grouped('literal', G, ['({ get a() { return 1 } })', '({ set a(v) {} })', '({ m() { return 1 } })', '({ async m() {} })', '({ *g() {} })', '({ __proto__: null })', '({ "__proto__": {} })', '({ __proto__: o })', '({ a: 1, __proto__: xs })']),
  ...grouped('arrow', G, ['x => x', '() => 1', '(x => x)(1)', '[x => x]', '({ f: x => x })', 'xs.includes(x => x)', 'xs.indexOf(() => 1)', 'xs.reduce((a, b) => a, () => 0)', 'xs.map(x => y => x)', 'xs.map(x => [() => x])', 'xs[k](x => x)', 'xs[`m${"ap"}`](x => x)', 'Array.from(x => x)', 'Array.from(xs, 1, x => x)', 'Object.groupBy(x => x, xs)', 'JSON.parse("1", (k, v) => v)', 'JSON.stringify(o, (k, v) => v)', 's.replace("a", () => "b")', 'xs.toSorted(undefined, (a, b) => a - b)', 'n ? x => x : 1', 'xs.map(x => x) || (y => y)', 'Math.max(() => 1)', '`${() => 1}`', 'xs.find(x => x, y => y)']),
  ...grouped('params', G, ['xs.map((a, b, c, d, e, f) => a)', 'xs.reduce((a, b, c, d, e, f) => a, 0)', 'xs.map((...args) => args)', 'xs.map((a, ...rest) => rest)', 'xs.map(x => { return x })', 'xs.map(x => {})', 'xs.map(async x => x)', 'xs.map(async (x) => await x)', 'xs.map(function* (x) { yield x })']),
  ...grouped('await', G, ['await n', 'await Promise.resolve(1)', 'xs.map(async x => await x)']),
  ...grouped('syntax', SYNTAX, ['yield n', '1; 2', 'if (n) 1', 'let a = 1', 'var a = 1', 'for (;;) {}', 'while (true) {}', 'do {} while (true)', '1), (2', 'n); (n', 'return 1', 'throw 1', 'try { 1 } catch {}', 'debugger', 'label: 1', 'with (o) a', 'export default 1', '', '   ', '{ a: 1 } + {']),
  ...grouped('nesting', G, [
    { expr: deep('(', '1', ')', 10000), code: SYNTAX }, { expr: deep('(', '1', ')', 10000), limits: { maxSourceLength: 100000 } },
    { expr: deep('[', '1', ']', 5000), limits: { maxSourceLength: 100000 } }, { expr: '!'.repeat(20000) + 'n', limits: { maxSourceLength: 100000 } },
    { expr: '-'.repeat(1) + ' -'.repeat(10000) + 'n', limits: { maxSourceLength: 100000 } }, { expr: Array(5000).fill('1').join('+'), limits: { maxSourceLength: 100000 } },
    { expr: 'o' + '.a'.repeat(5000), limits: { maxSourceLength: 100000 } }, { expr: 'o' + '?.a'.repeat(3000), limits: { maxSourceLength: 100000 } },
    { expr: 'n' + ' ? n'.repeat(3000) + ' : 0'.repeat(3000), limits: { maxSourceLength: 100000 } }, { expr: deep('{ a: ', '1', ' }', 3000).replace(/^\{/, '({').concat(')'), limits: { maxSourceLength: 100000 } },
    { expr: deep('`${', '1', '}`', 3000), limits: { maxSourceLength: 100000 } }, { expr: deep('xs.map(x => ', 'x', ')', 500), limits: { maxSourceLength: 100000 } },
    { expr: deep('[', '1', ']', 150), limits: { maxSourceLength: 100000 } }, { expr: Array(200).fill('n').join(' ?? '), limits: { maxSourceLength: 100000 } },
    { expr: deep('Math.abs(', '1', ')', 2000), limits: { maxSourceLength: 100000 } }, { expr: deep('((', '1', '))', 400), limits: { maxSourceLength: 100000 } },
  ]),
  ...grouped('length', SYNTAX, [
    `"${'x'.repeat(1001)}"`, Array(600).fill('1').join('+'), `n + ${'0'.repeat(2000)}`, { expr: '1 + 2 + 3 + 4 + 5 + 6 + 7', limits: { maxSourceLength: 20 } },
    { expr: `"${'é'.repeat(30)}"`, limits: { maxSourceLength: 20 } }, `xs.map(x => x)${' '.repeat(5000)}`,
  ].map((e) => (typeof e === 'string' ? { expr: e } : e))),
], shared);

const globals = file('glob', G, [
  ...grouped('unknown', UNKNOWN, ['eval("1")', 'eval', 'globalThis', 'globalThis.process', 'Function("return this")()', 'Proxy', 'Symbol.iterator', 'Symbol("x")', 'Intl.NumberFormat', 'Set', 'Map', 'WeakMap', 'process', 'process.env', 'require("fs")', 'fetch', 'fetch("/api/orders")', 'window', 'document', 'self', 'module', 'exports', 'arguments', 'encodeURI("a b")', 'decodeURI("%20")', 'escape("a")', 'unescape("%41")', 'BigInt(1)', 'setTimeout', 'structuredClone(o)', 'queueMicrotask', 'constructor', '__proto__', 'toString()', 'hasOwnProperty("a")', 'typeof nope', 'typeof nope === "undefined"', 'typeof window', 'typeof nope.x', 'Atomics', 'WebAssembly', 'Temporal', 'Iterator', 'Error("x")', 'RegExp("a")', 'Uint8Array', 'ArrayBuffer']),
  ...grouped('method', G, ['Reflect.ownKeys(o)', 'Promise.resolve(1)', 'Math.random()', 'Date.now()', 'Math.foo()', 'Math["random"]()', 'JSON.rawJSON("1")', 'Object.assign', 'Array.fromAsync(xs)', 'Number.foo(1)', 'String.raw({ raw: ["a"] })', 'Date.parse', 'xs.forEach(x => x)', 'xs.keys()', 'xs.values()', 'xs.entries()', 'xs["values"]()', 'xs.group(x => x)', 's.substr(1)', 's.match("a")', 's.matchAll("a")', 's.search("a")', 's.test("a")', 's.anchor("x")', 's.bold()', 's.trimLeft()', 's.trimRight()', 's.at.call("x", 0)', 'xs.findLast.length', 'xs.toLocaleString.call(o)', 'Math.sumPrecise.length', 'n.toLocaleString.name']),
  ...grouped('value', G, ['Math', 'JSON', 'Object', 'Array', 'Number', 'String', 'Boolean', 'Date', 'parseInt', 'isNaN', 'encodeURIComponent', '[Math]', '({ m: Math })', 'JSON.stringify(Math)', 'JSON.stringify({ m: Math })', 'Object.keys(Math)', 'Object.keys(JSON)', 'String(Math)', 'Math + 1', 'Number + 1', 'Math === Math', 'Math ?? 1', 'n ? Math : JSON', '(flag ? Date : Number)()', '(0 || parseInt)("1")', '[parseInt][0]("1")', 'xs[k]', 'xs.map', '"".trim', 's.toUpperCase', 'Math.max', 'Number.parseInt', 'JSON.parse', 'Object.keys', 'xs["map"]', '[xs.map]', 'n.toFixed', 'Date.UTC', '`${Math}`', '[...Math]', '({ ...Math })', 'Math.abs === Math.abs', 'xs.includes(Math)', 'Object.is(Math, Math)', 'Array.isArray(Array)']),
  ...grouped('call', G, ['Date()', 'Object()', 'Array(3)', 'Object(1)', 'Date(0)', 'Array()']),
  ...grouped('callback', G, ['xs.map(parseInt)', 'xs.map(Math)', 'xs.filter(Math.round)', 'xs.map(Math.abs)', 'xs.map(Date)', 'xs.map(Array)', 'xs.map(Object)', 'xs.map(JSON)', 'xs.map(JSON.stringify)', 'xs.toSorted(Math.max)', 'xs.map(Number.parseFloat)', 'xs.find(Array.isArray)', 'xs[k](parseInt)', 'Array.from(xs, parseInt)', 'Object.groupBy(xs, Math.sign)', 'xs.reduce(Math.max)', 'xs.map(String.fromCharCode)', 'xs.every(Number.isInteger)']),
  ...grouped('divergence', G, ['Object.keys(1)', 'Object.keys(true)', 'Object.values(n)', 'Object.hasOwn(5, "a")', '(1).toLocaleString(5)', '(1).toLocaleString("en-US", 5)', '(1).toLocaleString("en-US", { style: Math })', '(1).toLocaleString("en-US", { style: "unit", unit: "byte" })', '(1).toLocaleString("en-US", { style: "unit", unit: "kilometer-per-hour" })', '(1234).toLocaleString("ta", { notation: "compact" })', '(1234).toLocaleString("en-US", { style: "currency", currency: "USD", notation: "compact" })']),
], shared);

const host = file('host', G, [
  ...grouped('value', G, ['getUser', '[getUser]', '({ f: getUser })', 'typeof getUser', 'getUser === getUser', 'listOrders ?? 1', 'n ? getUser : 1', '`${listOrders}`', 'getUser.name', 'listOrders.call(null)']),
  ...grouped('args', G, ['getUser({ id: 1 }, 2)', 'listOrders(1, 2)', 'getUser({ id: 1 }, { id: 2 })', 'getUser(...[{ id: 1 }])', 'getUser(...objs)', 'listOrders(...[])']),
  ...grouped('callback', G, ['xs.map(id => getUser({ id }))', 'xs.filter(() => listOrders())', 'xs.map((x, y = getUser({ id: x })) => y)', 'Array.from({ length: 1 }, () => listOrders())', 'xs.some(x => n ?? getUser({ id: x }))', 'Object.groupBy(xs, () => listOrders())', 'xs.toSorted((a, b) => getUser({ id: a }))']),
  ...grouped('position', G, ['getUser({ id: 7 }).name', 'getUser({ id: 7 })?.name', 'getUser({ id: 1 }) + 1', '[getUser({ id: 1 })]', '({ u: getUser({ id: 1 }) })', '`${listOrders()}`', '!listOrders()', 'listOrders() ?? 1', 'listOrders() && 1', 'listOrders() || 1', 'JSON.stringify(listOrders())', 'listOrders().length', 'listOrders()[0]', 'typeof listOrders()', 'listOrders() ? 1 : 2', 'Math.max(getUser({ id: 1 }))', '-listOrders()', 'listOrders() === null', '[...listOrders()]', '({ ...getUser({ id: 1 }) })', 'listOrders().map(x => x)', 'getUser({ id: listOrders() })']),
  ...grouped('invalid', INVALID, ['getUser({ id: "seven" })', 'getUser()', 'getUser({})', 'getUser(7)', 'getUser(null)', 'getUser({ id: null })', 'getUser({ id: 1, extra: true })', 'listOrders({ all: true })', 'listOrders(1)', 'n > 0 ? getUser({ id: "x" }) : null', 'o.missing ?? getUser({ id: [] })']),
  ...grouped('ok', G, [
    { expr: 'getUser({ id: 7 })', expect: ok({ id: 7, name: 'Ada' }) }, { expr: 'cached ?? getUser({ id: 7 })', data: { cached: null }, expect: ok({ id: 7, name: 'Ada' }) },
    { expr: 'cached ?? getUser({ id: 7 })', data: { cached: { id: 1 } }, expect: ok({ id: 1 }) }, { expr: 'flag ? listOrders() : []', expect: ok([{ id: 1 }, { id: 2 }]) },
    { expr: 'flag && getUser({ id: n })', expect: ok({ id: 5, name: 'Ada' }) }, { expr: 'xs.map(getUser => getUser * 2)', expect: ok([2, 4, 6]) }, { expr: 'listOrders()', expect: ok([{ id: 1 }, { id: 2 }]) },
  ]),
], shared);

const big = { steps: 100000000 };
// Caps a host raised far past the defaults: only the clock and the machine stop these.
const raised = { steps: 1e12, maxStringLength: 1e10, maxArrayLength: 1e10, maxTotalAllocation: 1e12 };
const budget = file('budget', BUDGET, [
  ...grouped('string', BUDGET, ['"x".repeat(1e7)', '"ab".repeat(2 ** 29)', '"x".repeat(1000).repeat(1000).repeat(1000)', '"x".padStart(2e6)', '"x".padEnd(1e9, "ab")', '"".padStart(5e6, "abc")', '"x".repeat(600000) + "y".repeat(600000)', '`${"a".repeat(600000)}${"b".repeat(600000)}`', '"x".repeat(999999) + "yy"', '"ß".repeat(600000).toUpperCase()', '"a".repeat(600000).concat("b".repeat(600000))', '"abc".concat(..."x".repeat(50000).split("").map(() => "y".repeat(100)))']),
  ...grouped('array', BUDGET, ['Array.from({ length: 1e6 })', { expr: 'Array.from({ length: 2 ** 32 })', code: RUNTIME }, 'Array.from({ length: 1e5 }, () => Array.from({ length: 1e5 }))', 'Array.from({ length: 1e5 }).map(() => Array.from({ length: 1e5 }))', '[..."x".repeat(200000)]', 'Array.from("x".repeat(200000))', 'Math.max(...Array.from({ length: 2e5 }))', 'Array.from({ length: 2000 }).flatMap((_, i, a) => a)', 'Array.from({ length: 1000 }, () => Array.from({ length: 1000 })).flat()', 'Object.fromEntries(Array.from({ length: 2e5 }, (_, i) => [i, i]))', 'Array.from({ length: 6e4 }).concat(Array.from({ length: 6e4 }))', 'Array.from({ length: 5e4 }).toSpliced(0, 0, ...Array.from({ length: 6e4 }))']),
  ...grouped('join', BUDGET, ['Array.from({ length: 5e4 }).join("-".repeat(100))', 'Array.from({ length: 9e4 }, () => "abcdefghijklmn").join("")', 'String(Array.from({ length: 1e5 }, () => "abcdefghijk"))', '`${Array.from({ length: 9e4 }, () => "abcdefghijklmn")}`', 'Array.from({ length: 9e4 }, () => "abcdefghijklmn") + ""']),
  ...grouped('replace', BUDGET, ['"a".repeat(1e5).replaceAll("a", "a".repeat(20))', '"a".repeat(3000).replaceAll("a", "$\'")', '"a".repeat(3000).replaceAll("a", "$`")', '"a".repeat(1e5).replaceAll("", "xxxxxxxxxxxx")', '"ab".repeat(4e5).replace("ab", "$\'$\'")', '"a".repeat(1e5).replaceAll("a", "$&$&$&$&$&$&$&$&$&$&$&")']),
  ...grouped('split', BUDGET, ['"a".repeat(5e5).split("")', '"a,".repeat(2e5).split(",")', '"a".repeat(1e6).split("a")', 'JSON.parse("[" + "1,".repeat(2e5) + "1]")']),
  ...grouped('search', BUDGET, ['"a".repeat(500000).includes("a".repeat(5000) + "b")', '"a".repeat(500000).indexOf("a".repeat(5000) + "b")', '"a".repeat(500000).lastIndexOf("b" + "a".repeat(5000))', '"a".repeat(500000).split("a".repeat(5000) + "b").length', '"a".repeat(500000).replaceAll("a".repeat(5000) + "b", "")', '"a".repeat(500000).replace("a".repeat(5000) + "b", "")']),
  ...grouped('json', BUDGET, ['JSON.stringify(Array.from({ length: 5e4 }, (_, i) => ({ i })), null, 10)', 'JSON.stringify("\\u0000".repeat(200000))', 'JSON.stringify(Array.from({ length: 9e4 }, () => "\\n\\n\\n\\n\\n"))', 'JSON.stringify(Array.from({ length: 9e4 }, () => [[[[]]]]), null, "0123456789")']),
  ...grouped('marks', BUDGET, ['("e" + "\\u0301".repeat(31)).normalize()', '("e" + "\\u0301".repeat(31)).normalize("NFD")', '("a" + "\\u0300".repeat(40)).localeCompare("a")', '"a".localeCompare("o" + "\\u0308".repeat(31))', '("x" + "\\u0323\\u0301".repeat(20)).normalize("NFKC")']),
  ...grouped('steps', BUDGET, ['Array.from({ length: 1e5 }, (_, i) => -i).toSorted((a, b) => a - b)', 'Array.from({ length: 9e4 }, (_, i) => i).map(x => x * 2).map(x => x + 1).map(x => x - 1).filter(x => x % 3)', 'Array.from({ length: 1e5 }, () => 1).reduce((acc) => acc + "xxxxxxxxxxxxxxxxxxxx", "")', 'Array.from({ length: 1e5 }, (_, i) => Array.from({ length: 10 }, (_, j) => i + j)).flat().length', 'Array.from({ length: 400 }, (_, i) => Array.from({ length: 400 }, (_, j) => i * j).reduce((a, b) => a + b)).length']),
  ...grouped('limits', BUDGET, [
    { expr: '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(x => x * 2)', limits: { steps: 10 } }, { expr: '1 + 2 + 3 + 4', limits: { steps: 5 } },
    { expr: 'Array.from({ length: 100 }, (_, i) => i)', limits: { steps: 50 } }, { expr: 'Array.from({ length: 2000 })', limits: { steps: 1000 } },
    { expr: '"a".repeat(5000)', limits: { steps: 100 } }, { expr: 'big.filter(x => x > 0).map(x => x + 1)', data: { big: Array.from({ length: 50 }, (_, i) => i) }, limits: { steps: 60 } },
    { expr: 'xs.map(x => x).map(x => x).map(x => x).map(x => x)', limits: { steps: 25 } },
    { expr: '"a".repeat(11)', limits: { maxStringLength: 10 } }, { expr: '"abcdef" + "ghijkl"', limits: { maxStringLength: 10 } },
    { expr: '`${"abcdef"}${"ghijkl"}`', limits: { maxStringLength: 10 } }, { expr: '[1, 2, 3, 4, 5, 6].join(", ")', limits: { maxStringLength: 10 } },
    { expr: 'JSON.stringify({ a: 12345 })', limits: { maxStringLength: 10 } }, { expr: '"abc".padEnd(20)', limits: { maxStringLength: 10 } },
    { expr: 'long.toUpperCase()', data: { long: 'abcdefghijklmnopqrst' }, limits: { maxStringLength: 10 } }, { expr: 'String(12345678901)', limits: { maxStringLength: 10 } },
    { expr: '[1, 2, 3, 4, 5, 6]', limits: { maxArrayLength: 5 } }, { expr: 'xs.concat(xs)', limits: { maxArrayLength: 5 } },
    { expr: 'Array.from({ length: 6 })', limits: { maxArrayLength: 5 } }, { expr: '"abcdef".split("")', limits: { maxArrayLength: 5 } },
    { expr: 'xs.flatMap(x => [x, x])', limits: { maxArrayLength: 5 } }, { expr: 'Array.of(1, 2, 3, 4, 5, 6)', limits: { maxArrayLength: 5 } },
    { expr: '[..."abcdefg"]', limits: { maxArrayLength: 5 } }, { expr: 'Object.keys({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 })', limits: { maxArrayLength: 5 } },
    { expr: '[...xs, ...xs]', limits: { maxArrayLength: 5 } }, { expr: 'xs.toSpliced(0, 0, 4, 5, 6)', limits: { maxArrayLength: 5 } },
    { expr: 'Array.from({ length: 60 }).concat(Array.from({ length: 60 }))', limits: { maxTotalAllocation: 100 } },
    { expr: '"a".repeat(60) + "b".repeat(60)', limits: { maxTotalAllocation: 100 } }, { expr: '[1, 2].map(() => "x".repeat(60))', limits: { maxTotalAllocation: 100 } },
    { expr: 'xs.map(x => String(x).repeat(40))', limits: { maxTotalAllocation: 100 } },
    { expr: 'Array.from({ length: 1e5 }, (_, i) => i).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).map(x => x + 1).length', limits: { ms: 5, ...big } },
    { expr: 'Array.from({ length: 1e5 }, (_, i) => String(i)).toSorted((a, b) => (a < b ? 1 : a > b ? -1 : 0)).length', limits: { ms: 5, ...big } },
    { expr: 'Array.from({ length: 1000 }, () => Array.from({ length: 1000 }, (_, j) => j).reduce((a, b) => a + b)).length', limits: { ms: 2, ...big } },
  ]),
  // Issue 13: values built by doubling (60 small arrays, 2^60 leaves), walked or returned; one
  // operation that cannot stop halfway under raised caps; normalization that expands 18-fold.
  ...grouped('doubled', BUDGET, [
    'Array.from({ length: 60 }).reduce((a) => [a, a], 1)',
    'Object.groupBy(Array.from({ length: 60 }).reduce((a) => [a, a], 1), (x) => 1)',
    '[Array.from({ length: 60 }).reduce((a) => [a, a], 1)].concat([1])',
    'Array.from({ length: 1e5 }, () => "x".repeat(1e6))',
    'JSON.stringify(Array.from({ length: 60 }).reduce((a) => [a, a], 1))',
    'String(Array.from({ length: 60 }).reduce((a) => [a, a], 1))',
    'Array.from({ length: 60 }).reduce((a) => [a, a], 1).flat(Infinity).length',
    '[Array.from({ length: 60 }).reduce((a) => [a, a], 1), 1].toSorted()',
    'Array.from({ length: 60 }).reduce((a) => ({ a, b: a }), 1)',
    { expr: 'Array.from({ length: 60 }).reduce((a) => [a, a], 1)', limits: big },
    { expr: 'Array.from({ length: 60 }).reduce((a) => [a, a], 1).join()', limits: big },
  ]),
  ...grouped('bulk', BUDGET, [
    '"\uFDFA".repeat(5e5).normalize("NFKC").length',
    '"\uFDFA".repeat(5e5).normalize("NFKD").length',
    { expr: '"\uFDFA".repeat(5e5).normalize("NFKC").length', limits: raised },
    { expr: '"x".repeat(2e8).padStart(5e8, "ab").length', limits: raised },
    { expr: '("x".repeat(2.5e8) + "y".repeat(2.5e8)).length', limits: raised },
    { expr: '"xy".repeat(2.5e8).length', limits: raised },
    { expr: 'Array.from({ length: 2 ** 32 - 1 }).length', limits: raised },
    { expr: 'Array.from({ length: 2 ** 32 - 1 }).length', limits: { ...raised, ms: 1e9 } },
  ]),
], shared);

export default { prototype, harmless, mutation, grammar, globals, host, budget };
