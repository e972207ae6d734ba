// Operators: arithmetic, equality, relational, logical, conditional, unary, typeof, precedence.
import { topic } from './lib.mjs';

const t = topic('op', {
  a: 7, b: 2, s: '12', n: null, u: null, t: true, f: false, z: 0, e: '', xs: [1, 2, 3], o: { k: 1 },
  big: 9007199254740991, neg: -3.5, word: 'abc',
});

t.g('add', [
  '1 + 2', '0.1 + 0.2', '"a" + "b"', '"a" + 1', '1 + "a"', '1 + 2 + "3"', '"1" + 2 + 3', 'a + b', 's + a', 'a + s',
  'true + 1', 'true + true', 'null + 1', 'String(undefined + 1)', 'String(undefined + "")', '"x" + null', '"x" + undefined',
  '[1, 2] + [3]', '[] + []', '[] + 1', '({}) + 1', '[] + ({})', '"v" + [1, [2, 3]]', '"v" + [null, undefined]',
  'big + 1', 'big + 2', '1e308 + 1e308 === Infinity', 'String(-0 + -0)', 'Object.is(-0 + 0, 0)', 'Object.is(-0 + -0, -0)',
  'xs + ""', 'o + ""', '"" + f', 'neg + s', '1 + -1', '+"3" + +"4"',
]);
t.g('sub', [
  '5 - 3', '3 - 5', '"5" - 2', '"5" - "2"', '"a" - 1', 'null - 1', 'undefined - 1', 'true - false', '[5] - 2', '[5, 6] - 2',
  '"0x10" - 0', '" 12 " - 2', '"" - 1', 'Object.is(0 - 0, 0)', 'Object.is(-0 - 0, -0)', 'String(Infinity - Infinity)', '0.3 - 0.1',
  'a - -b', 'a - - - b', '1e21 - 1',
]);
t.g('mul', [
  '6 * 7', '"6" * "7"', '0.1 * 3', '-0 * 5 === 0', 'Object.is(-0 * 5, -0)', 'Object.is(0 * -5, -0)', 'String(Infinity * 0)',
  '[] * 2', 'null * 5', 'true * 3', '"2e3" * 1', 'String(1e200 * 1e200)', 'String(-1e200 * 1e200)', 'a * b * 0.5',
]);
t.g('div', [
  '7 / 2', '1 / 3', '2 / 3', 'String(1 / 0)', 'String(-1 / 0)', 'String(1 / -0)', '0 / 0', 'String(0 / 0)', '"9" / "3"',
  '10 / "x"', 'Object.is(0 / -5, -0)', '5e-324 / 2', '1 / 3 * 3', '1e-320 / 1e10', 'a / b',
]);
t.g('rem', [
  '7 % 3', '-7 % 3', '7 % -3', '-7 % -3', '5.5 % 2', '-5.5 % 2', 'Object.is(-6 % 3, -0)', 'Object.is(6 % -3, 0)',
  'String(5 % 0)', 'String(Infinity % 2)', '5 % Infinity', '-1 % Infinity', '0.3 % 0.1', '1e17 % 3', '"8" % "3"',
  '2 ** 53 % 10', '-0.5 % 1', 'Object.is(-0 % 1, -0)',
]);
t.g('exp', [
  '2 ** 10', '2 ** -1', '2 ** 0.5', 'String((-8) ** (1 / 3))', '0 ** 0', 'NaN ** 0', 'String(1 ** Infinity)', 'String(2 ** 1024)',
  '2 ** 3 ** 2', '(2 ** 3) ** 2', '(-2) ** 2', '(-2) ** 3', '"3" ** "2"', '10 ** -5', '10 ** 21', '10 ** 22', '10 ** -7',
  'String(0 ** -1)', 'String((-0) ** -1)', 'Object.is((-0) ** 3, -0)', '4 ** 0.5', '2 ** 0.1', '1.1 ** 2', 'a ** b',
  'String((-1) ** 0.5)', 'Infinity ** 0', 'String(Infinity ** -1)', '2 ** 52 + 0.5',
]);
t.g('looseeq', [
  '1 == 1', '"1" == 1', '1 == "1.0"', '0 == ""', '0 == "0"', '"" == "0"', 'null == undefined', 'null == 0',
  'undefined == 0', 'null == false', 'NaN == NaN', '[1] == 1', '[1, 2] == "1,2"', '[] == false', '[0] == false',
  '"true" == true', '1 == true', '2 == true', '({}) == "[object Object]"', '" \\t\\n" == 0', 'a == "7"', 'xs == "1,2,3"',
  'xs == xs', 'o == o', '[] == []', 'n == u', 'n != undefined', '"a" != "b"', '1 != "1"', 'z == e', 'f == z',
  '"0x10" == 16', '"1e1" == 10', 'null == ""', '-0 == 0', 'Infinity == "Infinity"',
]);
t.g('stricteq', [
  '1 === 1', '"1" === 1', 'NaN === NaN', '-0 === 0', 'null === undefined', 'null === null', 'undefined === undefined',
  'xs === xs', '[1] === [1]', 'o === o', '({}) === ({})', '"ab" === "a" + "b"', 'true !== 1', 'xs[0] === 1',
  '"\\u00e9" === "é"', '"e\\u0301" === "é"', 'a !== "7"', '0.1 + 0.2 === 0.3', '1 / 3 === 2 / 6',
]);
t.g('rel', [
  '1 < 2', '2 < 1', '1 <= 1', '2 >= 3', '"10" < "9"', '"10" < 9', '10 < "9"', '"a" < "b"', '"B" < "a"', '"abc" < "abd"',
  '"ab" < "abc"', '"" < "a"', 'null < 1', 'null >= 0', 'null > 0', 'undefined < 1', 'undefined >= 0', 'NaN < 1',
  'NaN >= NaN', '[2] > 1', '[2] < [10]', '[10] < [9]', '"\\uD83D\\uDE00" < "\\uFFFF"', '"\\u00e9" > "z"', 'true > false',
  '"Z" < "a"', '1 < 2 < 3', '3 > 2 > 1', 'Infinity > 1e308', '-Infinity < -1e308', '"1e2" > 99', '"x" < 1', '"x" > 1',
  '-0 < 0', '-0 <= 0', 'a >= b', 's > a', 'word < "abd"', '"10" <= "10"', '[1, 2] < [1, 3]', 'null <= undefined',
  '"a" <= "b"', '"b" <= "a"', '"10" <= "9"', 'null <= 0', '[2] <= [10]', '"a" >= "b"', 'true <= false', '"1" <= 2',
  '"é" <= "z"', '"" <= "a"',
]);
t.g('logic', [
  'true && "yes"', 'false && nope', '0 && "x"', '"" || "fallback"', '0 || null', 'null ?? "d"', 'undefined ?? 0',
  '0 ?? 1', '"" ?? "x"', 'false ?? true', 'NaN || 5', 'true || nope', 'null ?? undefined ?? 3', 'a && b', 'n || u',
  'n ?? f', '(n ?? 0) || "zero"', 'n ?? (0 || "x")', 'o && o.k', 'n && n.k', 'xs.length && xs[0]', '!a || b',
  '[] && "truthy"', '({}) || 1', '"0" && "non-empty"', 'Object.is(-0 || 0, 0)', 'Object.is(-0 && 1, -0)',
  'a > 5 && a < 10', 'a < 5 || b < 5', '!(a > 5 && b > 5)',
]);
t.g('cond', [
  'a > 5 ? "big" : "small"', 'b > 5 ? "big" : "small"', 'n ? 1 : 2', '"" ? 1 : 2', '[] ? 1 : 2', 'NaN ? 1 : 2',
  'a > 5 ? b > 5 ? "both" : "a" : "none"', 'a < 5 ? 1 : b < 5 ? 2 : 3', 'true ? false ? 1 : 2 : 3',
  '(a > 5 ? xs : []).length', '!a ? nope1 : "ok"', 'f ? nope2 : "ok2"', 'xs.length > 2 ? xs.slice(1) : xs',
]);
t.g('unary', [
  '!true', '!0', '!""', '!"0"', '![]', '!({})', '!null', '!undefined', '!NaN', '!!a', '!!e', '-a', '-"3"', '-""',
  'Object.is(-"0", -0)', '-null', '-true', '-[5]', '-[]', 'String(-"x")', '+"3.5"', '+""', '+" "', '+"0x1F"', '+"0b101"',
  '+"0o17"', '+"1e3"', 'String(+"1_000")', 'String(+"-0x10")', '+null', 'String(+undefined)', '+true', '+[]', '+[7]', '+[1, 2]', 'String(+({}))',
  'String(+"Infinity")', 'String(+"-Infinity")', 'String(+"infinity")', '- -a', '-(-a)', 'Object.is(-0, -0)', 'Object.is(+-0, -0)',
  '+"  \\n42\\t "', '+"4 2"', '+".5"', '+"5."', '+"."', '+"+5"', '+"--5"',
]);
t.g('typeof', [
  'typeof 1', 'typeof "s"', 'typeof true', 'typeof null', 'typeof undefined', 'typeof xs', 'typeof o', 'typeof NaN',
  'typeof Infinity', 'typeof n', 'typeof a', 'typeof word', 'typeof typeof a', 'typeof (a + s)', 'typeof -a',
  'typeof Math', 'typeof JSON', 'typeof Object', 'typeof Number', 'typeof parseInt', 'typeof Date', 'typeof Boolean',
  'typeof encodeURIComponent', 'typeof o.missing', 'typeof xs[9]', 'typeof o.k', 'typeof [].length',
]);
t.g('prec', [
  '1 + 2 * 3', '(1 + 2) * 3', '10 - 4 - 3', '10 - (4 - 3)', '2 * 3 ** 2', '-(2 ** 2)', '(-2) ** 2', '100 / 10 / 2',
  '1 + 2 > 2', '1 < 2 === true', '1 == 1 && 2 == 2', 'false || true && false', '(false || true) && false',
  '!a == false', '!(a == false)', '1 + +"2"', '"3" - -"3"', '5 % 3 * 2', '5 * 3 % 2', 'typeof a + 1', '!n + 1',
  '1 - 1 ? "t" : "f"', 'a > b === b < a', '2 + 3 + "" + 2 + 3',
]);

export default t.cases;
