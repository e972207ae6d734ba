// Number methods across magnitudes: toFixed, toExponential, toPrecision, toString(radix),
// valueOf, and an en-US toLocaleString; ties, -0, NaN, Infinity, the largest and smallest values.
import { topic } from './lib.mjs';

const t = topic('num', { x: 1234.5678, tiny: 1e-7, huge: 1.7976931348623157e308, negz: 0, half: 2.5 });

const values = ['0', '-0', '1', '-1', '0.5', '1.5', '2.5', '-2.5', '1.005', '1.45', '8.345', '0.000001', '1e-7', '123.456', '-123.456',
  '1e20', '1e21', '123456789.98765', '0.1', '0.3', '4.35', '1.255', '9.995', '99.99', '1.7976931348623157e308', '5e-324', '2 ** 53'];
t.g('toFixed', [
  ...values.flatMap((v) => [`(${v}).toFixed()`, `(${v}).toFixed(2)`]),
  '(1.23).toFixed(20)', '(0.1).toFixed(20)', '(1e-10).toFixed(20)', '(123.456).toFixed(10)', '(1.5).toFixed(100).length', '(1).toFixed(100).slice(0, 10)',
  '(1e20).toFixed(5)', '(999.999).toFixed(2)', '(0.5).toFixed(0)', '(-0.5).toFixed(0)', '(-1.5).toFixed(0)', '(0.05).toFixed(1)', '(0.15).toFixed(1)',
  '(0.25).toFixed(1)', '(0.35).toFixed(1)', '(-0.0001).toFixed(2)', '(NaN).toFixed(2)', '(Infinity).toFixed(2)', '(-Infinity).toFixed(0)',
  '(1.45).toFixed(1)', '(2.345).toFixed(2)', '(10.235).toFixed(2)', 'x.toFixed(1)', 'x.toFixed(3)', '(12.5).toFixed(-0)', '(1e21).toFixed(2)',
  '(-1e21).toFixed(2)', '(9.999999999999999e20).toFixed(2)', '(0.000001).toFixed(7)', '(1.1).toFixed(1.9)', '(5).toFixed(undefined)', '(5).toFixed(null)',
]);
t.g('toExponential', [
  ...values.flatMap((v) => [`(${v}).toExponential()`, `(${v}).toExponential(3)`]),
  '(123456).toExponential(2)', '(123456).toExponential(0)', '(1.5).toExponential(0)', '(2.5).toExponential(0)', '(3.5).toExponential(0)',
  '(1.25).toExponential(1)', '(1.35).toExponential(1)', '(0.00015).toExponential(1)', '(1e-10).toExponential(5)', '(5e-324).toExponential(2)',
  '(1.7976931348623157e308).toExponential(20)', '(1).toExponential(100).length', '(NaN).toExponential(2)', '(NaN).toExponential(200)',
  '(Infinity).toExponential(200)', '(-Infinity).toExponential()', 'x.toExponential(4)', 'tiny.toExponential()', '(99.5).toExponential(1)',
  '(0).toExponential(2)', '(-0).toExponential(1)', '(123.456).toExponential(20)',
]);
t.g('toPrecision', [
  ...values.flatMap((v) => [`(${v}).toPrecision()`, `(${v}).toPrecision(3)`]),
  '(123.456).toPrecision(1)', '(123.456).toPrecision(2)', '(123.456).toPrecision(4)', '(123.456).toPrecision(6)', '(123.456).toPrecision(10)',
  '(0.000123).toPrecision(2)', '(0.0000001234).toPrecision(2)', '(1e21).toPrecision(3)', '(1e21).toPrecision(22)', '(123456).toPrecision(2)',
  '(123456).toPrecision(6)', '(123456).toPrecision(7)', '(999999).toPrecision(3)', '(0.5).toPrecision(1)', '(1.5).toPrecision(1)', '(2.5).toPrecision(1)',
  '(1.25).toPrecision(2)', '(1.35).toPrecision(2)', '(NaN).toPrecision(0)', '(Infinity).toPrecision(500)', '(0).toPrecision(5)', '(-0).toPrecision(3)',
  '(1).toPrecision(100).length', '(1e-7).toPrecision(1)', '(1e-6).toPrecision(1)', '(0.000001).toPrecision(3)', 'x.toPrecision(5)', 'huge.toPrecision(3)',
  '(5e-324).toPrecision(3)', '(12345.6789).toPrecision(undefined)', '(1e100).toPrecision(1)',
]);
t.g('toString', [
  '(255).toString(16)', '(255).toString(2)', '(255).toString(36)', '(-255).toString(16)', '(255).toString()', '(255).toString(10)', '(255).toString(undefined)',
  '(0.5).toString(2)', '(0.1).toString(2)', '(0.1).toString(3)', '(0.1).toString(16)', '(3.14159).toString(8)', '(-3.75).toString(2)', '(1e21).toString(16)',
  '(1e21).toString(36)', '(2 ** 53).toString(36)', '(2 ** 53 + 2).toString(2)', '(-0).toString(2)', '(NaN).toString(2)', '(Infinity).toString(16)',
  '(-Infinity).toString(36)', '(123.456).toString(36)', '(1 / 3).toString(3)', '(1 / 3).toString(2)', '(0.000001).toString(7)', '(1e-7).toString(2)',
  '(5e-324).toString(2).length', '(1.7976931348623157e308).toString(36)', '(35).toString(36)', '(36).toString(36)', '(4095.9375).toString(16)',
  '(1e300).toString(2).length', '(0.999).toString(5)', '(12345.6789).toString(20)', '(-1e-7).toString(36)', '(2 ** 31).toString(32)', 'x.toString(16)',
  '(10).toString(2.9)', '(1e21).toString()', '(1e-7).toString()', '(100).toString(3)',
]);
t.g('valueOf', ['(5).valueOf()', 'x.valueOf()', 'Object.is((-0).valueOf(), -0)', 'String((NaN).valueOf())']);
t.g('locale', ['(1234567.891).toLocaleString("en-US")', '(0.5).toLocaleString("en-US", { style: "percent" })', '(1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" })', '(1e21).toLocaleString("en-US")', '(-0).toLocaleString("en-US")', '(NaN).toLocaleString("en-US")']);
t.g('literal', ['1..toString()', '1.5.toFixed(1)', '255 .toString(16)', '(1).toFixed(2)', '-(1).toFixed(2)', '(-1).toFixed(2)', '-1.5.toFixed(0)', 'half.toFixed(0)', 'negz.toFixed(2)']);

export default t.cases;
