// The callable globals and the statics of Number, String and Date: Number/String/Boolean,
// parseInt/parseFloat, isNaN/isFinite, the URI component codecs, Number.* and its constants,
// String.fromCharCode/fromCodePoint, Date.parse (local-time forms read as UTC: the oracle runs
// with TZ=UTC) and Date.UTC.
import { topic } from './lib.mjs';

const t = topic('glob', { s: ' 42px ', o: { a: 1 }, xs: [1, 2], nil: null, text: 'a b&c/d?e=é😀#' });

t.g('Number', ['Number()', 'Number(undefined) === undefined', 'String(Number(undefined))', 'Number(null)', 'Number(true)', 'Number(false)', 'Number("")', 'Number("  12  ")', 'String(Number(s))', 'Number("1e3")', 'Number([])', 'Number([5])', 'String(Number(xs))', 'String(Number(o))', 'Number(-0) === 0', 'Object.is(Number("-0"), -0)', 'Number("0b101")', 'Number(" 0x10 ")', 'Number(12.5)', 'Number("-12.5e-1")']);
t.g('String', ['String()', 'String(undefined)', 'String(null)', 'String(true)', 'String(123)', 'String(-0)', 'String(1e21)', 'String(xs)', 'String(o)', 'String([nil, [nil]])', 'String("s")', 'String(NaN)', 'String(-Infinity)', 'String([[1, 2], [3, [4, 5]]])', 'String(0.000001)']);
t.g('Boolean', ['Boolean()', 'Boolean(0)', 'Boolean(-0)', 'Boolean(NaN)', 'Boolean("")', 'Boolean(" ")', 'Boolean("0")', 'Boolean("false")', 'Boolean(null)', 'Boolean(undefined)', 'Boolean([])', 'Boolean({})', 'Boolean(o)', 'Boolean(1e-300)', 'Boolean(-Infinity)']);
t.g('parseInt', [
  'parseInt("42")', 'parseInt("  -42px")', 'parseInt(s)', 'parseInt("0x1F")', 'parseInt("0x1F", 16)', 'parseInt("1F", 16)', 'parseInt("0x1F", 10)',
  'parseInt("z", 36)', 'parseInt("Z", 36)', 'parseInt("123", 2)', 'parseInt("101", 2)', 'parseInt("12", 0)', 'String(parseInt("12", 1))', 'String(parseInt("12", 37))',
  'parseInt("12", 36.9)', 'parseInt("12", "8")', 'String(parseInt(""))', 'String(parseInt("abc"))', 'parseInt("3.99")', 'parseInt("-0")', 'Object.is(parseInt("-0"), -0)',
  'parseInt(0.0000005)', 'parseInt(1e21)', 'parseInt(null, 36)', 'parseInt(undefined, 36)', 'parseInt("123456789012345678901234567890")', 'parseInt("1e3")',
  'parseInt("+7")', 'String(parseInt("- 7"))', 'parseInt("\\u00a0\\ufeff 8")', 'parseInt("077")', 'parseInt("0b11")', 'parseInt("0o17")', 'parseInt("ff", 16)',
  'parseInt("FF", 15)', 'String(parseInt("0x"))', 'parseInt("0x10", 16)', 'parseInt("-0x10")', 'parseInt(" 12 34 ")', 'parseInt("9007199254740993")',
  'parseInt(15.99, 10)', 'parseInt("11", -1) === 11 ? "radix ignored" : "used"', 'parseInt("11", 4294967298)', 'Number.parseInt("42px")', 'Number.parseInt("ff", 16)',
]);
t.g('parseFloat', [
  'parseFloat("3.14")', 'parseFloat("3.14abc")', 'parseFloat(".5")', 'parseFloat("-.5e-3x")', 'parseFloat("5.")', 'parseFloat("5.e2")', 'String(parseFloat("."))',
  'String(parseFloat("Infinityx"))', 'String(parseFloat("-Infinity"))', 'String(parseFloat("infinity"))', 'parseFloat("0x10")', 'parseFloat("1e")', 'parseFloat("1e+")',
  'parseFloat("  \\n 42")', 'parseFloat(s)', 'String(parseFloat(""))', 'parseFloat("1_000")', 'parseFloat("1e400") > 1e308', 'parseFloat("-0") === 0', 'Object.is(parseFloat("-0"), -0)',
  'parseFloat([" 2.5 "])', 'parseFloat("0.1e1")', 'parseFloat("123456789012345678901234567890")', 'parseFloat("1.7976931348623159e308") > 1e308',
  'parseFloat("2.2250738585072011e-308")', 'Number.parseFloat("1.5e3")', 'Number.parseFloat("  -7.25kg")', 'String(parseFloat(nil))', 'parseFloat("+1.5")', 'parseFloat("1.5.5")',
]);
t.g('isNaN', ['isNaN(NaN)', 'isNaN("abc")', 'isNaN("")', 'isNaN(" ")', 'isNaN("12")', 'isNaN(undefined)', 'isNaN(null)', 'isNaN([])', 'isNaN([1, 2])', 'isNaN(o)', 'isNaN(true)', 'isNaN("Infinity")', 'isNaN()']);
t.g('isFinite', ['isFinite(1)', 'isFinite("12")', 'isFinite("abc")', 'isFinite(Infinity)', 'isFinite(-Infinity)', 'isFinite(NaN)', 'isFinite(null)', 'isFinite(undefined)', 'isFinite("1e308")', 'isFinite("1e309")', 'isFinite([])', 'isFinite(true)', 'isFinite()']);
t.g('encode', [
  'encodeURIComponent(text)', 'encodeURIComponent("")', 'encodeURIComponent("AZaz09-_.!~*\'()")', 'encodeURIComponent(" ")', 'encodeURIComponent("%")',
  'encodeURIComponent(";,/?:@&=+$#")', 'encodeURIComponent("é")', 'encodeURIComponent("€")', 'encodeURIComponent("😀")', 'encodeURIComponent("\\u0000\\u007f")',
  'encodeURIComponent(123)', 'encodeURIComponent(null)', 'encodeURIComponent(undefined)', 'encodeURIComponent(xs)', 'encodeURIComponent("\\uFFFF")',
  'encodeURIComponent("\\uD7FF\\uE000")', 'encodeURIComponent("\\n\\t")', 'encodeURIComponent("[]{}|\\\\^`\\"<>")',
]);
t.g('decode', [
  'decodeURIComponent("a%20b")', 'decodeURIComponent("%E2%82%AC")', 'decodeURIComponent("%F0%9F%98%80")', 'decodeURIComponent("%41%2f%2F")', 'decodeURIComponent("%c3%a9")',
  'decodeURIComponent("")', 'decodeURIComponent("plain+text")', 'decodeURIComponent(encodeURIComponent(text))', 'decodeURIComponent("%25")', 'decodeURIComponent("%3B%2C%23")',
  'decodeURIComponent(5)', 'decodeURIComponent(null)', 'decodeURIComponent("%EF%BF%BF")', 'decodeURIComponent("%F4%8F%BF%BF")', 'decodeURIComponent("%00")',
]);
t.g('NumberFn', [
  'Number.isInteger(5)', 'Number.isInteger(5.0)', 'Number.isInteger(5.5)', 'Number.isInteger("5")', 'Number.isInteger(Infinity)', 'Number.isInteger(NaN)', 'Number.isInteger(-0)',
  'Number.isInteger(1e300)', 'Number.isInteger()', 'Number.isSafeInteger(2 ** 53)', 'Number.isSafeInteger(2 ** 53 - 1)', 'Number.isSafeInteger(-(2 ** 53 - 1))',
  'Number.isSafeInteger(1.5)', 'Number.isSafeInteger("1")', 'Number.isFinite(1)', 'Number.isFinite("1")', 'Number.isFinite(Infinity)', 'Number.isFinite(null)',
  'Number.isNaN(NaN)', 'Number.isNaN("NaN")', 'Number.isNaN(undefined)', 'Number.isNaN(0 / 0)', 'Number.isNaN()',
]);
t.g('NumberConst', [
  'Number.MAX_SAFE_INTEGER', 'Number.MIN_SAFE_INTEGER', 'Number.MAX_VALUE', 'Number.MIN_VALUE', 'Number.EPSILON', 'String(Number.POSITIVE_INFINITY)',
  'String(Number.NEGATIVE_INFINITY)', 'String(Number.NaN)', 'Number.MAX_SAFE_INTEGER + 2', 'Number.EPSILON > 0', '1 + Number.EPSILON > 1', '1 + Number.EPSILON / 2 > 1',
  'Number.MIN_VALUE / 2', 'Number.MAX_VALUE * 2 === Number.POSITIVE_INFINITY', 'Number.isNaN(Number.NaN)', 'Number["MAX_SAFE_INTEGER"]', 'String(Number.MIN_VALUE)',
]);
t.g('fromCharCode', [
  'String.fromCharCode()', 'String.fromCharCode(65)', 'String.fromCharCode(72, 105)', 'String.fromCharCode(0xD83D, 0xDE00)', 'String.fromCharCode(0xD800)', 'String.fromCharCode(65.9)',
  'String.fromCharCode(-1)', 'String.fromCharCode(0x10041)', 'String.fromCharCode("66")', 'String.fromCharCode(NaN)', 'String.fromCharCode(65536 + 97)', 'String.fromCharCode(...xs.map(x => x + 96))',
  'String.fromCharCode(0).length', 'String.fromCharCode(233)',
]);
t.g('fromCodePoint', [
  'String.fromCodePoint()', 'String.fromCodePoint(65)', 'String.fromCodePoint(0x1F600)', 'String.fromCodePoint(0x1F600).length', 'String.fromCodePoint(97, 0x1F600, 98)', 'String.fromCodePoint(0xD800)',
  'String.fromCodePoint(0x10FFFF).length', 'String.fromCodePoint("65")', 'String.fromCodePoint(0)', 'String.fromCodePoint(0xD83D, 0xDE00)', 'String.fromCodePoint(233, 8364)',
]);
t.g('DateParse', [
  'Date.parse("2024-01-15T10:30:00Z")', 'Date.parse("2024-01-15T10:30:00.123Z")', 'Date.parse("2024-01-15T10:30:00.1Z")', 'Date.parse("2024-01-15T10:30Z")', 'Date.parse("2024-01-15")',
  'Date.parse("2024-01")', 'Date.parse("2024")', 'Date.parse("2024-01-15T10:30:00+02:00")', 'Date.parse("2024-01-15T10:30:00-05:30")', 'Date.parse("1970-01-01T00:00:00Z")',
  'Date.parse("1969-12-31T23:59:59.999Z")', 'Date.parse("+002024-01-01T00:00:00Z")', 'Date.parse("-000001-01-01T00:00:00Z")', 'Date.parse("2024-01-15T24:00:00Z")',
  'String(Date.parse("2024-13-01"))', 'String(Date.parse("2024-02-30"))', 'Date.parse("2024-02-29")', 'String(Date.parse("2023-02-29"))', 'String(Date.parse("not a date"))',
  'String(Date.parse(""))', 'Date.parse("2024-01-15T10:30:00.123456Z")', 'Date.parse("Mon, 15 Jan 2024 10:30:00 GMT")', 'Date.parse("15 Jan 2024 10:30:00 GMT")',
  'Date.parse("Jan 15, 2024 10:30:00 UTC")', 'Date.parse("2024-01-15T10:30:00.000+00:00")', 'Date.parse("Tue Jan 16 2024 00:00:00 GMT+0100")', 'Date.parse("2000-01-01T00:00:00Z") / 1000',
  'Date.parse("+275760-09-13T00:00:00Z")', 'String(Date.parse("+275760-09-13T00:00:00.001Z"))', 'Date.parse("2024-01-15T10:30:59Z") - Date.parse("2024-01-15T10:30:00Z")',
  'Date.parse("2024-01-15T10:30:00")', 'Date.parse("2024-01-15T10:30")', 'Date.parse("2024/01/15")', 'Date.parse("01/15/2024")', 'Date.parse("Jan 15 2024")',
  'Date.parse("January 15, 2024 10:30")', 'Date.parse("2024-1-5")',
]);
t.g('DateUTC', [
  'Date.UTC(2024, 0, 15)', 'Date.UTC(2024, 0, 15, 10, 30, 0, 123)', 'Date.UTC(2024)', 'String(Date.UTC())', 'Date.UTC(99, 0)', 'Date.UTC(100, 0)', 'Date.UTC(2024, 12, 1)',
  'Date.UTC(2024, 0, 0)', 'Date.UTC(2024, -1, 1)', 'Date.UTC(2024, 1, 29)', 'Date.UTC(2023, 1, 29)', 'Date.UTC(1970, 0, 1)', 'Date.UTC(1969, 11, 31, 23, 59, 59, 999)',
  'Date.UTC(2024.9, 0.9, 1.9)', 'Date.UTC("2024", "5")', 'String(Date.UTC(NaN))', 'String(Date.UTC(2024, NaN))', 'Date.UTC(275760, 8, 13)', 'String(Date.UTC(275760, 8, 13, 0, 0, 0, 1))',
  'Date.UTC(-271821, 3, 20)', 'Date.UTC(0, 0)', 'Date.UTC(-1, 0)', 'Date.UTC(2024, 0, 1, 25)', 'Date.UTC(2024, 0, 1, 0, 0, 0, -1)', 'String(Date.UTC(1e6))', 'Date.UTC(2024, 0, 1, 0, 0, 0, 0.9)',
]);

export default t.cases;
