// String methods, one group per method, with UTF-16 edge cases: astral characters (two code
// units), lone surrogates, combining marks, the empty string, and $-patterns in replacements.
import { topic } from './lib.mjs';

const t = topic('str', {
  s: 'Hello, World', e: '', em: 'a😀b', lone: 'x\uD800y', low: '\uDC00', acc: 'e\u0301', ws: ' \t\n\u00a0\ufeff\u2028 mid \u3000\r ',
  csv: 'a,b,,c', path: '/usr/local/bin', word: 'banana', n: 3, multi: 'line1\nline2\r\nline3',
});

t.g('at', ['s.at(0)', 's.at(-1)', 's.at(100)', 's.at(-100)', 'em.at(1)', 'em.at(2)', 'em.at(-2)', 'e.at(0)', 's.at(1.9)', 's.at()', 's.at(NaN)']);
t.g('charAt', ['s.charAt(0)', 's.charAt(4)', 's.charAt(100)', 's.charAt(-1)', 'em.charAt(1)', 'e.charAt(0)', 's.charAt()', 'lone.charAt(1)']);
t.g('charCodeAt', ['s.charCodeAt(0)', 'em.charCodeAt(1)', 'em.charCodeAt(2)', 'String(s.charCodeAt(100))', 'String(e.charCodeAt(0))', 's.charCodeAt()', 'acc.charCodeAt(1)', 'lone.charCodeAt(1)', 'String(s.charCodeAt(-1))']);
t.g('codePointAt', ['s.codePointAt(0)', 'em.codePointAt(1)', 'em.codePointAt(2)', 'em.codePointAt(3)', 's.codePointAt(100)', 'lone.codePointAt(1)', 'low.codePointAt(0)', '"\\uD83D".codePointAt(0)', 'e.codePointAt(0)', 's.codePointAt(-1)', '"😀😀".codePointAt(2)']);
t.g('startsWith', ['s.startsWith("Hell")', 's.startsWith("hell")', 's.startsWith("")', 's.startsWith("World", 7)', 's.startsWith("H", 1)', 's.startsWith("H", -5)', 'e.startsWith("")', 'em.startsWith("a\\uD83D")', 's.startsWith("Hello, World!")', 's.startsWith("d", 11)', 's.startsWith("", 100)']);
t.g('endsWith', ['s.endsWith("World")', 's.endsWith("world")', 's.endsWith("")', 's.endsWith("Hello", 5)', 's.endsWith("o", 100)', 's.endsWith("H", 1)', 's.endsWith("H", 0)', 'em.endsWith("\\uDE00b")', 'e.endsWith("")', 's.endsWith("l", -1)']);
t.g('includes', ['s.includes("lo, W")', 's.includes("xyz")', 's.includes("")', 's.includes("H", 1)', 's.includes("d", 11)', 's.includes("d", 12)', 'em.includes("😀")', 'em.includes("\\uDE00")', 'e.includes("")', 's.includes("o", -10)', 'acc.includes("e")', 'acc.includes("é")']);
t.g('indexOf', ['s.indexOf("o")', 's.indexOf("o", 5)', 's.indexOf("o", 100)', 's.indexOf("")', 's.indexOf("", 5)', 's.indexOf("", 100)', 's.indexOf("z")', 'em.indexOf("b")', 'em.indexOf("\\uDE00")', 'word.indexOf("ana")', 'word.indexOf("ana", 2)', 's.indexOf("o", -5)', 'e.indexOf("")', 's.indexOf()', '"undefined".indexOf()']);
t.g('lastIndexOf', ['s.lastIndexOf("o")', 's.lastIndexOf("o", 5)', 's.lastIndexOf("o", 3)', 's.lastIndexOf("")', 's.lastIndexOf("", 3)', 's.lastIndexOf("z")', 'word.lastIndexOf("ana")', 'word.lastIndexOf("ana", 2)', 'word.lastIndexOf("a", -5)', 'word.lastIndexOf("b", 0)', 'word.lastIndexOf("a", NaN)', 'em.lastIndexOf("a")', 'e.lastIndexOf("")']);
t.g('slice', ['s.slice(7)', 's.slice(0, 5)', 's.slice(-5)', 's.slice(-5, -1)', 's.slice(5, 2)', 's.slice(100)', 's.slice()', 'em.slice(1, 2)', 'em.slice(2)', 'em.slice(0, -1)', 's.slice(NaN, 3)', 's.slice(-100, 2)', 'lone.slice(1, 2)', 'e.slice(1)', 's.slice(2.9, 4.1)']);
t.g('substring', ['s.substring(7)', 's.substring(0, 5)', 's.substring(5, 0)', 's.substring(-3)', 's.substring(-3, 3)', 's.substring(3, -3)', 's.substring(100)', 's.substring(NaN, 2)', 'em.substring(1, 3)', 's.substring()', 's.substring(2, 2)', 's.substring(2, Infinity)']);
t.g('concat', ['s.concat("!")', 's.concat()', 'e.concat("a", "b")', '"a".concat(1, 2)', '"a".concat([1, 2], {})', '"x".concat(null)', '"x".concat(undefined)', '"\\uD83D".concat("\\uDE00")', '"\\uD83D".concat("\\uDE00").length']);
t.g('split', [
  'csv.split(",")', 'csv.split(",", 2)', 'csv.split(",", 0)', 'csv.split(",", -1)', 'csv.split()', 'csv.split(undefined)', 'csv.split("")',
  'em.split("")', 'e.split("")', 'e.split(",")', 'path.split("/")', 's.split(", ")', 's.split("xyz")', 'word.split("a")', 'word.split("an")',
  'word.split("banana")', 'word.split("", 3)', 'multi.split("\\n")', 'csv.split(",", 2.9)', 'csv.split(",", NaN)', '"a😀b😀".split("😀")',
  '"a\\uD83D\\uDE00".split("\\uD83D")', 'csv.split(",", 4294967297)', '"1-2-3".split("-").map(Number)',
]);
t.g('replace', [
  's.replace("World", "There")', 's.replace("o", "0")', 's.replace("xyz", "!")', 's.replace("", "_")', 'e.replace("", "x")',
  'word.replace("a", "[$&]")', 'word.replace("na", "[$`]")', 'word.replace("na", "[$\']")', 'word.replace("a", "$$")', 'word.replace("a", "$")',
  'word.replace("a", "$1")', 'word.replace("a", "$0")', 'word.replace("a", "$<name>")', 'word.replace("a", "$$&")', 'word.replace("a", "$&$&")',
  'word.replace("nan", "-$`-$\'-")', 'em.replace("😀", "smile")', 'em.replace("\\uD83D", "?")', 's.replace("l", "")', 'word.replace("a", undefined)',
  'word.replace("a", null)', 'word.replace("a", 5)', 'word.replace("b", "$\'$\'")', 'word.replace("", "$\'")',
]);
t.g('replaceAll', [
  'word.replaceAll("a", "o")', 'word.replaceAll("an", "AN")', 'word.replaceAll("ana", "_")', 'word.replaceAll("", "-")', 'e.replaceAll("", "-")',
  'word.replaceAll("a", "[$&]")', 'word.replaceAll("a", "$`|")', 'word.replaceAll("a", "|$\'")', 'word.replaceAll("a", "$$")', 'word.replaceAll("x", "y")',
  'csv.replaceAll(",", ", ")', 'em.replaceAll("", ".")', 'word.replaceAll("a", "")', 'word.replaceAll("a", "$1$2")', '"aaa".replaceAll("aa", "b")',
  'multi.replaceAll("\\r\\n", "\\n")', 'word.replaceAll("n", 1)',
]);
t.g('repeat', ['"ab".repeat(3)', '"ab".repeat(0)', 'e.repeat(5)', '"ab".repeat(2.9)', '"ab".repeat("2")', '"ab".repeat(NaN)', '"😀".repeat(2)', '"-".repeat(20).length', 'e.repeat(1000000)', '"ab".repeat()']);
t.g('padStart', ['"5".padStart(3, "0")', '"5".padStart(3)', '"abc".padStart(2, "x")', '"abc".padStart(6, "12")', '"abc".padStart(8, "12")', '"abc".padStart(6, "")', 'e.padStart(3, "ab")', '"x".padStart(3, "😀")', '"x".padStart(NaN, "a")', '"x".padStart(-5, "a")', '"x".padStart(4.9, "a")', '"x".padStart(3, undefined)', '"x".padStart(3, null)']);
t.g('padEnd', ['"5".padEnd(3, "0")', '"5".padEnd(3)', '"abc".padEnd(2, "x")', '"abc".padEnd(6, "12")', '"abc".padEnd(8, "12")', '"abc".padEnd(6, "")', 'e.padEnd(3, "ab")', '"x".padEnd(2, "😀")', '"x".padEnd(3, 0)', '"abc".padEnd(5, "\\uD83D")']);
t.g('case', [
  's.toLowerCase()', 's.toUpperCase()', 'e.toUpperCase()', '"straße".toUpperCase()', '"ﬁ".toUpperCase()', '"İ".toLowerCase()', '"İ".toLowerCase().length',
  '"ΑΣ".toLowerCase()', '"ΑΣ Β".toLowerCase()', '"Σ".toLowerCase()', '"ΑΣΑ".toLowerCase()', '"ǅ".toLowerCase()', '"ǅ".toUpperCase()', '"ŉ".toUpperCase()',
  'em.toUpperCase()', 'lone.toUpperCase()', '"𐐨".toUpperCase()', '"ÀÉÎ".toLowerCase()', '"i".toUpperCase()', '"ı".toUpperCase()', '"ß".toLowerCase()',
  '"ΐ".toUpperCase()', 'acc.toUpperCase()', '"123 ABC def".toLowerCase()', '"Ⅻ".toLowerCase()', '"ⓐ".toUpperCase()',
]);
t.g('localeCase', ['"straße".toLocaleUpperCase("en-US")', '"İSTANBUL".toLocaleLowerCase("en-US")', 's.toLocaleUpperCase("en-US")', 's.toLocaleLowerCase("en-US")']);
t.g('trim', ['ws.trim()', 'ws.trimStart()', 'ws.trimEnd()', 'e.trim()', '"  ".trim()', '"\\u180Ex\\u180E".trim()', '"\\u200Bx".trim()', '"\\u2000\\u200A\\u205F\\u1680x\\u2029".trim()', 's.trim()', '"\\u0085x".trim().length', 'ws.trim().length']);
t.g('normalize', [
  'acc.normalize()', 'acc.normalize().length', 'acc.normalize("NFC")', '"é".normalize("NFD").length', '"é".normalize("NFD") === acc', '"ﬁ".normalize("NFKC")',
  '"ﬁ".normalize("NFKD")', '"ﬁ".normalize("NFC")', '"①".normalize("NFKC")', '"Å".normalize("NFD").length', '"\\u1E9B\\u0323".normalize("NFC")',
  '"\\u1E9B\\u0323".normalize("NFD")', '"\\u1E9B\\u0323".normalize("NFKC")', '"\\u1E9B\\u0323".normalize("NFKD")', 'e.normalize()', '"한".normalize("NFD").length',
  '"\\u1100\\u1161\\u11A8".normalize("NFC")', 'lone.normalize()', '"a\\u0301\\u0323".normalize("NFC")', '"x".normalize(undefined)',
]);
t.g('wellFormed', ['s.isWellFormed()', 'em.isWellFormed()', 'lone.isWellFormed()', 'low.isWellFormed()', 'e.isWellFormed()', '"\\uDE00\\uD83D".isWellFormed()', 'lone.toWellFormed()', 'low.toWellFormed()', 's.toWellFormed()', '"\\uDE00\\uD83D".toWellFormed()', 'em.toWellFormed() === em', '"ab\\uD83D".toWellFormed()']);
t.g('localeCompare', ['"a".localeCompare("b")', '"b".localeCompare("a")', '"a".localeCompare("a")', '"a".localeCompare("B")', '"A".localeCompare("a")', '"résumé".localeCompare("resume")', 'e.localeCompare("a")', '"a".localeCompare("b", "en-US")', '"10".localeCompare("9")', '"ä".localeCompare("z", "en-US")', 'acc.localeCompare("é")']);
t.g('misc', [
  's.toString()', 'e.toString()', 's.valueOf()', 'em.valueOf()', 's.toLocaleString()', 's.length', 'em.length', 'lone.length', 'acc.length',
  '"😀".length', 's.toString() === s', 'word.split("").toReversed().join("")', 'word.at(-1) + word.charAt(0)', '`${word}`.toUpperCase().split("A").length',
]);

export default t.cases;
