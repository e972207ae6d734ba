// Math: every function and constant, over ordinary values and the edges (-0, NaN, ±Infinity,
// the smallest and largest doubles). A result that JSON cannot show (-0, NaN, Infinity) is
// written through String() or Object.is.
import { topic } from './lib.mjs';

const t = topic('math', { v: -2.5, w: 7, ws: [3, 9, -1] });

const show = (call) => [`String(${call})`];
const edge = ['0', '-0', 'NaN', 'Infinity', '-Infinity'];
const negZero = (call) => `Object.is(${call}, -0)`;

function unary(fn, values, extra = []) {
  t.g(fn, [
    ...values.map((v) => `Math.${fn}(${v})`),
    ...edge.flatMap((v) => show(`Math.${fn}(${v})`)),
    negZero(`Math.${fn}(-0)`),
    ...extra,
  ]);
}

unary('abs', ['-5', '5', '-1.5', '"-3"', 'null', '[-2]', 'v', '-1.7976931348623157e308', '-5e-324']);
unary('ceil', ['1.1', '-1.1', '1', '-0.5', '0.5', '2 ** 52 + 0.5', '-(2 ** 52) - 0.5', '4.000000000000001', 'v'], [negZero('Math.ceil(-0.5)')]);
unary('floor', ['1.9', '-1.1', '1', '-0.5', '0.5', '4.999999999999999', '-4.000000000000001', 'v'], [negZero('Math.floor(-0)'), negZero('Math.floor(0.5)')]);
unary('round', ['1.5', '2.5', '-1.5', '-2.5', '0.49999999999999994', '-0.5', '0.5', '1.4999999999999998', '2 ** 52 + 0.5', '4503599627370495.5', '-4503599627370495.5', '3.7', '-3.7', 'v'],
  [negZero('Math.round(-0.5)'), negZero('Math.round(-0.2)'), negZero('Math.round(0.2)')]);
unary('trunc', ['1.9', '-1.9', '0.5', '-0.5', '1e21 + 0.5', '4.7', 'v'], [negZero('Math.trunc(-0.5)')]);
unary('sign', ['5', '-5', '0.001', '-1e-300', '"3"', '"-x"', 'v'], []);
unary('sqrt', ['4', '2', '0.25', '-1', '1e-300', '1e300', '10', '3', 'w'], []);
unary('cbrt', ['8', '-8', '27', '2', '0.001', '-0.125', '1e-300', '10', '3', 'w'], []);
unary('log', ['1', 'Math.E', '10', '0.5', '-1', '2', '1e-300', '1e300', '100', '7'], []);
unary('log2', ['8', '1', '0.125', '3', '1024', '-1', '1e-300', '10', '2 ** 1023'], []);
unary('log10', ['1000', '1', '0.001', '2', '1e21', '-1', '5', '1e-300', '12345'], []);
unary('log1p', ['0', '1', '-1', '1e-10', '-0.5', '-2', '1e-20', '100', 'Math.E - 1'], []);
unary('exp', ['0', '1', '-1', '2', '10', '0.5', '709', '710', '-745', '-746', '1e-10', '100', '-20'], []);
unary('expm1', ['1', '-1', '1e-10', '1e-20', '2', '10', '-20', '710', '0.5'], []);
unary('sin', ['1', '-1', 'Math.PI', 'Math.PI / 2', 'Math.PI / 6', '0.5', '10', '100', '1e10', '1e-10', '3', '1e300', '-7.5'], []);
unary('cos', ['1', '-1', 'Math.PI', 'Math.PI / 2', 'Math.PI / 3', '0.5', '10', '100', '1e10', '3', '1e300', '-7.5'], []);
unary('tan', ['1', '-1', 'Math.PI / 4', 'Math.PI / 2', '0.5', '10', '100', '1e10', '3', '1.5', '-7.5'], []);
unary('asin', ['1', '-1', '0.5', '-0.5', '2', '0.1', '0.99', '1e-10'], []);
unary('acos', ['1', '-1', '0.5', '-0.5', '2', '0.1', '0.99', '1e-10'], []);
unary('atan', ['1', '-1', '0.5', '10', '1e10', '1e-10', '3', '-100'], []);
unary('sinh', ['1', '-1', '0.5', '10', '1e-10', '710', '-710', '3'], []);
unary('cosh', ['1', '-1', '0.5', '10', '1e-10', '710', '3'], []);
unary('tanh', ['1', '-1', '0.5', '10', '20', '1e-10', '3', '0.001'], []);
unary('asinh', ['1', '-1', '0.5', '10', '1e-10', '1e300', '3'], []);
unary('acosh', ['1', '2', '0.5', '10', '1e300', '3', '1.0000001'], []);
unary('atanh', ['0.5', '-0.5', '1', '-1', '2', '1e-10', '0.99'], []);
unary('fround', ['5.5', '5.05', '1.337', '0.1', '2 ** -150', '2 ** -149', '1e40', '3.4028234663852886e38', '3.4028235677973366e38', '16777217', '-1.1', '"2.2"'], []);
unary('clz32', ['1', '2', '0.5', '-1', '2 ** 31', '2 ** 32', '2 ** 32 + 1', '0xffffffff', '"8"', '1000', '-0.5', '3.7'], []);

t.g('pow', [
  'Math.pow(2, 10)', 'Math.pow(2, -1)', 'Math.pow(2, 0.5)', 'Math.pow(4, 0.5)', 'Math.pow(-8, 1 / 3)', 'Math.pow(0, 0)', 'Math.pow(NaN, 0)',
  'Math.pow(1, Infinity)', 'Math.pow(-1, Infinity)', 'Math.pow(0.5, Infinity)', 'Math.pow(2, Infinity)', 'Math.pow(-2, 3)', 'Math.pow(-2, 0.5)',
  'Math.pow(10, -5)', 'Math.pow(10, 21)', 'Math.pow(10, 308)', 'Math.pow(10, 309)', 'Math.pow(10, -323)', 'Math.pow(10, -324)', 'Math.pow(1.1, 10)',
  'Math.pow(7, 0.5)', 'Math.pow(2, 0.1)', 'Math.pow(-0, -1)', 'Math.pow(-0, -2)', 'Math.pow(-0, 3)', 'Math.pow(-Infinity, 3)', 'Math.pow(-Infinity, -3)',
  'Math.pow(Infinity, -1)', 'Math.pow(1.0000001, 1e7)', 'Math.pow(2, 1023)', 'Math.pow(2, -1074)', 'Math.pow(2, -1075)', 'Math.pow()', 'Math.pow(3)',
  'Math.pow(w, 2)', 'Math.pow(10, 15)', 'Math.pow(10, 23)', 'Math.pow(5, 22)',
].map((e) => `String(${e})`).concat([negZero('Math.pow(-0, 3)'), negZero('Math.pow(-Infinity, -3)')]));
t.g('atan2', [
  'Math.atan2(1, 1)', 'Math.atan2(1, 0)', 'Math.atan2(-1, 0)', 'Math.atan2(0, -1)', 'Math.atan2(-0, -1)', 'Math.atan2(0, 0)', 'Math.atan2(-0, 0)',
  'Math.atan2(0, -0)', 'Math.atan2(-0, -0)', 'Math.atan2(Infinity, Infinity)', 'Math.atan2(-Infinity, -Infinity)', 'Math.atan2(1, Infinity)',
  'Math.atan2(1, -Infinity)', 'Math.atan2(NaN, 1)', 'Math.atan2(3, 4)', 'Math.atan2(-3, -4)', 'Math.atan2(1e-300, 1e300)', 'Math.atan2()',
].map((e) => `String(${e})`).concat([negZero('Math.atan2(-0, 1)'), negZero('Math.atan2(-1, Infinity)')]));
t.g('hypot', [
  'Math.hypot()', 'Math.hypot(3, 4)', 'Math.hypot(3, 4, 12)', 'Math.hypot(-3)', 'Math.hypot(1, 1)', 'Math.hypot(1e200, 1e200)', 'Math.hypot(1e-200, 1e-200)',
  'Math.hypot(NaN, Infinity)', 'Math.hypot(Infinity, NaN)', 'Math.hypot(NaN, 1)', 'Math.hypot(0, -0)', 'Math.hypot(...ws)', 'Math.hypot("3", [4])',
  'Math.hypot(1, 2, 3, 4, 5)', 'Math.hypot(0.1, 0.2)',
].map((e) => `String(${e})`));
t.g('minmax', [
  'Math.max()', 'Math.min()', 'Math.max(1, 2, 3)', 'Math.min(1, 2, 3)', 'Math.max(1, NaN, 3)', 'Math.min(NaN)', 'Math.max(-0, 0)', 'Math.min(0, -0)',
  'Math.max(...ws)', 'Math.min(...ws)', 'Math.max(..."123")', 'Math.max("10", 9)', 'Math.max(null, -1)', 'Math.min(undefined, 1)', 'Math.max([1], [2])',
  'Math.max(-Infinity, -1e308)', 'Math.min(Infinity, 1e308)', 'Math.max(v, w)', 'Math.min(...[])', 'Math.max(true, 0.5)',
].map((e) => `String(${e})`).concat([negZero('Math.min(0, -0)'), negZero('Math.max(-0, -0)'), 'Object.is(Math.max(-0, 0), 0)', 'Object.is(Math.max(0, -0), 0)']));
t.g('imul', [
  'Math.imul(3, 4)', 'Math.imul(-5, 12)', 'Math.imul(0xffffffff, 5)', 'Math.imul(0xfffffffe, 5)', 'Math.imul(2 ** 31, 2)', 'Math.imul(65536, 65536)',
  'Math.imul(0x7fffffff, 0x7fffffff)', 'Math.imul(-1, 8)', 'Math.imul(1.9, 2.9)', 'Math.imul(NaN, 1)', 'Math.imul(Infinity, 2)', 'Math.imul("3", "4")',
  'Math.imul()', 'Math.imul(2 ** 32 + 3, 2)', 'Math.imul(123456789, 987654321)', 'Math.imul(-2147483648, -1)',
]);
t.g('const', [
  'Math.PI', 'Math.E', 'Math.LN2', 'Math.LN10', 'Math.LOG2E', 'Math.LOG10E', 'Math.SQRT1_2', 'Math.SQRT2', 'String(Math.PI)', 'Math.PI * 2',
  '[Math.E, Math.LN2, Math.LN10, Math.LOG2E, Math.LOG10E, Math.SQRT1_2, Math.SQRT2].map(String)', 'Math.PI.toFixed(5)', 'Math["PI"]', 'Math.SQRT2 ** 2',
]);
t.g('usage', [
  'Math.round(v * 100) / 100', 'Math.round(1.005 * 100) / 100', 'Math.floor(w / 2)', 'Math.max(0, Math.min(10, w * 2))', 'Math.abs(v) + Math.sign(v)',
  'Math.trunc(-w / 2)', 'Math.sqrt(Math.pow(3, 2) + Math.pow(4, 2))', 'Math.log(Math.exp(2))', 'Math.round(Math.log10(12345))',
  'Math.ceil(w / 3) * 3', 'ws.map(x => Math.abs(x))',
  'ws.reduce((m, x) => Math.max(m, x))',
]);

const prices = [12.5, 104.99, 5, 42.1];
t.g('sumPrecise', [
  'Math.sumPrecise([1, 2, 3])', 'Math.sumPrecise(fs)', 'fs.reduce((a, b) => a + b)', 'Math.sumPrecise([0.1, 0.2])', 'Math.sumPrecise([1e20, 0.1, -1e20])',
  'Math.sumPrecise([1e308, 1e308, -1e308])', 'String(Math.sumPrecise([1e308, 1e308]))', 'String(Math.sumPrecise([-1e308, -1e308]))', 'Object.is(Math.sumPrecise([]), -0)',
  'Object.is(Math.sumPrecise([-0, -0]), -0)', 'Object.is(Math.sumPrecise([-0, 0]), 0)', 'Object.is(Math.sumPrecise([1, -1]), 0)', 'String(Math.sumPrecise([Infinity, 1]))',
  'String(Math.sumPrecise([-Infinity, 1]))', 'String(Math.sumPrecise([Infinity, -Infinity]))', 'String(Math.sumPrecise([NaN, 1]))', 'String(Math.sumPrecise([1, NaN, Infinity]))',
  'Math.sumPrecise([5e-324, 5e-324])', 'Math.sumPrecise([2 ** 53, 1, 1])', 'Math.sumPrecise([2 ** 53, 1])', 'Math.sumPrecise([1, 2 ** -53, 2 ** -53])',
  'Math.sumPrecise(xs)', 'Math.sumPrecise(rows.map(r => r.price))', 'rows.map(r => r.price).reduce((a, b) => a + b, 0)', 'Math.sumPrecise([1.7976931348623157e308, -1.7976931348623157e308, 1])',
  'Math.sumPrecise([3, 0.1, -3])', 'Math.sumPrecise([-0.1, -0.2, -0.3])', 'Math.sumPrecise(Array.from({ length: 10 }, () => 0.1))', 'Math.sumPrecise([1e-300, 1e300, -1e300])',
  'Math.sumPrecise([0.5, 0.25, 0.125])',
], { fs: [0.1, 0.2, 0.3], xs: [3, 1, 4, 1, 5, 9, 2, 6], rows: prices.map((price) => ({ price })) });
t.g('f16round', [
  'Math.f16round(5.5)', 'Math.f16round(5.05)', 'Math.f16round(1.337)', 'Math.f16round(0.1)', 'Math.f16round(65504)', 'Math.f16round(65519.99)', 'String(Math.f16round(65520))',
  'String(Math.f16round(-65520))', 'Math.f16round(2 ** -24)', 'Math.f16round(2 ** -25)', 'Math.f16round(2 ** -25 * 1.0001)', 'Math.f16round(2 ** -14)', 'Math.f16round(6.1e-5)',
  'Math.f16round(1.00048828125)', 'Math.f16round(1.00146484375)', 'Math.f16round(2049)', 'Math.f16round(2051)', 'Math.f16round(-3.14159)', 'Math.f16round("2.5")',
  'String(Math.f16round(NaN))', 'String(Math.f16round(Infinity))', 'Object.is(Math.f16round(-0), -0)', 'Object.is(Math.f16round(-1e-10), -0)', 'Math.f16round(1e-300)',
  'Math.f16round(123.456)', 'Math.f16round(0.333)', 'Math.f16round(1e5) === Infinity', 'Math.f16round()', 'String(Math.f16round())', 'Math.f16round(null)',
]);

export default t.cases;
