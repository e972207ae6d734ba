// Writes the node answers that the number, global and date tests in src/builtins/ check
// against, as tests/data/number-*.json, parse-*.json and date-parse.json. Run from
// crates/writ-js with `TZ=UTC node tests/number-gen.js`. Inputs come from a fixed-seed
// generator, so the files only change when node does. Doubles are written as the hex of
// their bits, so NaN, -0 and every last bit survive.
"use strict";
const fs = require("fs");
const path = require("path");

if (process.env.TZ !== "UTC") throw new Error("run with TZ=UTC");

let seed = 0x2545f4914f6cdd1dn;
function nextBits() {
  // xorshift64*
  seed ^= seed >> 12n;
  seed ^= (seed << 25n) & 0xffffffffffffffffn;
  seed ^= seed >> 27n;
  return (seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
}
const view = new DataView(new ArrayBuffer(8));
const fromBits = (bits) => (view.setBigUint64(0, bits), view.getFloat64(0));
const hex = (x) => (view.setFloat64(0, x), view.getBigUint64(0).toString(16).padStart(16, "0"));
const unit = () => Number(nextBits() >> 11n) / 2 ** 53;
const below = (n) => Math.floor(unit() * n);
const pick = (list) => list[below(list.length)];

// A double from one of several families, so that every kind of digit string shows up.
function someDouble() {
  switch (below(9)) {
    case 0: {
      let x;
      do x = fromBits(nextBits()); while (!Number.isFinite(x));
      return x;
    }
    case 1: return (below(2e9) - 1e9) / 10 ** below(8); // prices, measurements
    case 2: return (2 * below(1e6) + 1) / 2 ** (1 + below(12)); // exact binary ties
    case 3: return (below(2) ? -1 : 1) * 10 ** (below(60) - 30) * (1 + below(9));
    case 4: return fromBits(BigInt(below(2 ** 20))); // subnormals
    case 5: return (unit() - 0.5) * 10 ** (below(44) - 22);
    case 6: return (below(2) ? -1 : 1) * 2 ** (below(2098) - 1074);
    case 7: {
      const p = 10 ** (below(40) - 20);
      const x = fromBits(BigInt("0x" + hex(p)) + BigInt(below(5)) - 2n);
      return Number.isFinite(x) ? x : p;
    }
    default: return below(1e6) - 5e5 + pick([0, 0.5, 0.25, 0.125, 0.05, 0.005]);
  }
}

function write(name, rows) {
  const file = path.join(__dirname, "data", name);
  fs.writeFileSync(file, "[\n" + rows.map((r) => JSON.stringify(r)).join(",\n") + "\n]\n");
  console.log(file, rows.length);
}

// --- number methods: [bits, method, argument (null for none), expected text]
{
  const rows = [];
  const fixed = [0, -0, 0.5, 1.5, 2.5, -1.5, 1.005, 1.45, 1e21, -1e21, 999999999999999999999, 1e20, 5e-324, 0.1, 123.456, 1.7976931348623157e308, NaN, Infinity, -Infinity];
  for (const x of fixed) for (const m of ["toFixed", "toExponential", "toPrecision"]) for (const a of [null, 0, 1, 2, 20, 100]) {
    if (m === "toPrecision" && a === 0) continue;
    rows.push([hex(x), m, a, a === null ? x[m]() : x[m](a)]);
  }
  for (const x of fixed) for (const r of [2, 3, 7, 8, 16, 32, 36]) rows.push([hex(x), "toString", r, x.toString(r)]);
  for (let i = 0; i < 3000; i++) {
    let x = someDouble();
    if (below(4) > 0 && Math.abs(x) >= 1e21) x = x / 10 ** 30;
    const f = pick([0, 1, 2, 3, below(21), below(101)]);
    rows.push([hex(x), "toFixed", f, x.toFixed(f)]);
  }
  for (let i = 0; i < 3000; i++) {
    const x = someDouble();
    const f = below(5) === 0 ? null : pick([0, 1, 2, 5, below(21), below(101)]);
    rows.push([hex(x), "toExponential", f, f === null ? x.toExponential() : x.toExponential(f)]);
  }
  for (let i = 0; i < 3000; i++) {
    const x = someDouble();
    const p = pick([1, 2, 3, 6, 1 + below(21), 1 + below(100)]);
    rows.push([hex(x), "toPrecision", p, x.toPrecision(p)]);
  }
  for (let i = 0; i < 4000; i++) {
    const x = someDouble();
    let r = 2 + below(35);
    if (r === 10) r = 16;
    rows.push([hex(x), "toString", r, x.toString(r)]);
  }
  write("number-format.json", rows);
}

// --- parseInt / parseFloat: [text, radix (a JSON value, or "none"), expected bits]
{
  const spaces = ["", "", "", " ", "  ", "\t", "\n", "\u00a0", "\ufeff", "\u2028", "\u3000"];
  const junk = ["", "", "", "x", " 12", ".5", "e5", "e+5", "E-3", "e", "-", "z", "_1", "\u0661", ",5", "0x1"];
  function digitsIn(radix, n) {
    let s = "";
    for (let i = 0; i < n; i++) {
      const d = below(radix);
      const c = d.toString(36);
      s += below(3) === 0 ? c.toUpperCase() : c;
    }
    return s;
  }
  const ints = [];
  const fixedInts = [["", "none"], ["0", "none"], ["-0", "none"], ["0x", "none"], ["0x1f", "none"], ["-0x1f", "none"], ["0x1f", 16], ["0x1f", 15], ["0x1f", 0], ["0b11", "none"], ["  42px", "none"], ["9007199254740993", "none"], ["123", 1], ["123", 37], ["123", 36], ["zz", 36], ["ZZ", 36], ["123", -1], ["123", 4294967306], ["123", "10"], ["11", null], ["11", 2.9], ["11", true], ["0".repeat(400) + "1", "none"], ["1".repeat(400), "none"], ["1e21", "none"], ["Infinity", "none"], ["-", "none"], ["+7", "none"], ["+-7", "none"], ["\u00a0\ufeff 12", "none"]];
  for (const [t, r] of fixedInts) ints.push([t, r, hex(r === "none" ? parseInt(t) : parseInt(t, r))]);
  for (let i = 0; i < 4000; i++) {
    const radix = pick(["none", "none", 0, 10, 10, 16, 2, 8, 32, 4, 36, 3, 7, 12, 1 + below(37), 2 + below(35)]);
    const dr = typeof radix === "number" && radix >= 2 && radix <= 36 ? radix : pick([10, 10, 16]);
    const len = pick([1, 2, 5, 10, 15, 16, 17, 18, 19, 20, 21, 25, 40, below(80), below(400)]);
    let t = pick(spaces) + pick(["", "", "-", "+"]) + (dr === 16 && below(2) ? pick(["0x", "0X"]) : "") + (below(4) === 0 ? "0".repeat(below(5)) : "") + digitsIn(dr, len) + pick(junk);
    ints.push([t, radix, hex(radix === "none" ? parseInt(t) : parseInt(t, radix))]);
  }
  write("parse-int.json", ints);

  const floats = [];
  const fixedFloats = ["", ".", "-.5", ".5", "5.", "1.e5", "1e", "1e+", "1e-", "-0", "+0", "-0.0e5", "Infinity", "-Infinityx", "+Infinity", "infinity", "1_000", "0x10", "1e400", "-1e400", "1e-400", "2.4703282292062328e-324", "2.4703282292062327e-324", "9007199254740993", "0." + "0".repeat(400) + "1", "1" + "0".repeat(400), "  \n 3.14abc", "\u00a01", "e5", "+.e5", "00012", "1.5.5", "1e5e5"];
  for (const t of fixedFloats) floats.push([t, "none", hex(parseFloat(t))]);
  for (let i = 0; i < 3000; i++) {
    let t = pick(spaces) + pick(["", "", "-", "+"]);
    if (below(20) === 0) t += pick(["Infinity", "Infinit", "NaN"]);
    else {
      t += digitsIn(10, pick([0, 1, 1, 2, 3, 5, 10, 17, 20, below(40), below(300)]));
      if (below(2)) t += "." + digitsIn(10, pick([0, 1, 2, 5, 10, 17, 25, below(40)]));
      if (below(2)) t += pick(["e", "E"]) + pick(["", "+", "-"]) + digitsIn(10, pick([0, 1, 2, 3, below(6)]));
    }
    t += pick(junk);
    floats.push([t, "none", hex(parseFloat(t))]);
  }
  write("parse-float.json", floats);
}

// --- Date.parse: [text, expected (a number, or null for NaN)]
{
  const rows = [];
  const fixed = [
    "2024", "2024-03", "2024-03-05", "2024-03-05T10:30", "2024-03-05T10:30Z", "2024-03-05T10:30:15", "2024-03-05T10:30:15.5Z",
    "2024-03-05T10:30:15.123Z", "2024-03-05T10:30:15.123456Z", "2024-03-05T10:30:15+01:00", "2024-03-05T10:30:15-0530",
    "2024-03-05T10:30:15+01", "2024-03-05T24:00", "2024-03-05T24:00:00.000Z", "2024-03-05T24:00:01", "2024-03-05T25:00",
    "+002024-03-05", "-002024-03-05", "+275760-09-13T00:00:00.000Z", "+275760-09-13T00:00:00.001Z", "-271821-04-20T00:00:00.000Z",
    "-271821-04-19T23:59:59.999Z", "-271821-04-19T23:59:59.999-00:01", "-000000", "-000000-01-01", "+000000-01-01", "0000-01-01",
    "2024-02-29", "2023-02-29", "2024-02-30", "2024-02-32", "2024-13-01", "2024-00-10", "2024-3-5", "2024-03-05T10:30:00.",
    "2024-03-05t10:30", "2024-03-05T10:30z", "2024-03-05T10:30:00 Z", "2024-03-05T1030",
    "Mar 5, 2024", "March 5, 2024", "March 5 2024", "5 March 2024", "5 Mar 2024", "05 Mar 2024", "March 5, 2024 10:30:00",
    "March 5, 2024 10:30", "March 5, 2024 10:30 PM", "March 5, 2024 12:00 AM", "March 5, 2024 12:00 PM", "March 5, 2024 13:00 PM",
    "March 5, 2024 10:30pm", "2024/03/05", "2024/3/5", "2024/03/05 10:30", "2024/03/05 10:30:15", "03/05/2024", "3/5/2024 10:30",
    "13/05/2024", "Tue, 05 Mar 2024 10:00:00 GMT", "Tuesday, 05 Mar 2024 10:00:00 GMT", "05 Mar 2024 10:00:00 +0100",
    "05 Mar 2024 10:00:00 -0130", "05 Mar 2024 10:00:00 GMT+1", "05 Mar 2024 10:00:00 GMT+01:00", "05 Mar 2024 10:00:00 UTC",
    "05 Mar 2024 10:00:00 Z", "05 Mar 2024 10:00:00 EST", "05 Mar 2024 10:00:00 PDT", "2024-03-05 10:30", "2024-03-05 10:30:15",
    "2024-03-05 10:30:15.25", "2024-03-05 10:30 GMT", "2024-03-05 10:30 +02:00", "2024-03-05 10:30Z",
    "Tue Mar 05 2024 10:00:00 GMT+0100 (Central European Standard Time)", "Feb 30 2024", "Feb 31, 2024", "Feb 32 2024",
    "Mar 5", "Mar 5 99", "Mar 5 49", "Mar 5 50", "Mar 5 100", "5", "hello 1", "1 2 3", "1 2 3 4", "99 1 1", "Sep 13 275760",
    "Sep 14 275760 UTC-1", "Mar 5, 2024 10:30:15.250", "Mar 5, 2024 10:30:15.2", "Mar 5, 2024 10:30:61", "Mar 5, 2024 24:00",
    "Mar 5, 2024 24:01", "Mar 5, 2024 10:", "Mar 5, 2024 10::", "(comment) Mar 5, 2024", "Mar (x) 5, 2024", "Mar 5, 2024 (x",
    "2024\u0000junk", "", " ", "abc", "Marchxyz 5 2024", "Ma 5 2024", "T", "2024-03-05T", "2024-03-05 T10:00", "\u00a02024-03-05",
    "2024-03-05\u00a0", "mar 5 2024", "MAR 5 2024", "5-Mar-2024", "2024-Mar-05", "Mar-5-2024", "12:30 Mar 5 2024", "10:30 2024-03-05",
    "Mar 5 2024 10:30:15 GMT+0100 GMT", "Mar 5 2024 GMT", "GMT Mar 5 2024", "Mar 5 2024 +0100", "Mar 5 2024 10:00 +01:30",
    "Mar 5 2024 10:00 -12345", "Mar 5 2024 10.30", "Mar 5 2024 10.30.15", "1e3", "1.5", "2024-03-05T10:30:00.123+05:30",
    "Z", "2024 Z", "am", "10 am", "Mar 5 2024 10 am", "Mar 5 2024 10:00 am pm", "Mar 5 2024 0:00 am", "Mar 5 2024 12 pm",
    "0001234567890", "Mar 0001234567890 2024", "2024-03-05T10:30:00.0001234567890Z",
    "Mar 5 2024 10:30\n", "Mar 5 2024 10:30\u2028", "x \u202812", "Mar 5 2024 10:00 +300000:00", "Mar 5 2024 10:00 +600000:00",
    "Mar 5 2024 10:00 +1193047:00", "Mar 5 9999999", "Mar 5 999999", "Mar 5 2024 10:00:00.5", "Mar 5 2024 10:00.5", "10:00 2024-03-05",
    "Mar 5 2024 GMT+0100 (x", "Mar 5 2024 (GMT+0100", "Mar 5 2024 10:00 GMT-8", "Mar 5 2024 10:00 UTC+5:30", "12 x", "5 2024",
  ];
  for (const t of fixed) rows.push([t, Number.isNaN(Date.parse(t)) ? null : Date.parse(t)]);
  // Token soup: words, numbers and symbols in random orders, to reach the corners of the legacy parser.
  const words = ["Mar", "March", "jan", "DEC", "Sept", "Tue", "Tuesday", "am", "PM", "GMT", "UTC", "UT", "Z", "z", "T", "t", "EST", "edt", "CST", "MDT", "pst", "foo", "x", "de", "(GMT)", "(a(b)c)", "é"];
  const syms = [" ", " ", " ", "  ", ",", ":", "::", ".", "-", "+", "/", ")", "(", "\t", "\u00a0", "\ufeff", "\u2028", "\u0000", "@", "[", "~", "\u00e9t\u00e9"];
  function num() {
    return pick([String(below(10)), String(below(100)).padStart(2, "0"), String(below(60)), String(1900 + below(200)), String(below(10000)).padStart(4, "0"), String(below(1000000)).padStart(6, "0"), String(below(1000)), "24", "00", "0", "12", "13", "31", "32", "99", "100", "000", String(below(1e9)), String(below(1e9)) + String(below(1e5))]);
  }
  for (let i = 0; i < 8000; i++) {
    let t = "";
    const n = 1 + below(9);
    for (let k = 0; k < n; k++) {
      const r = below(10);
      t += r < 4 ? num() : r < 6 ? pick(words) : pick(syms);
    }
    rows.push([t, Number.isNaN(Date.parse(t)) ? null : Date.parse(t)]);
  }
  // Near-ISO strings, each with one piece changed.
  for (let i = 0; i < 2000; i++) {
    const parts = [pick(["", "", "+", "-"]) + (below(4) ? String(1900 + below(200)) : num()), "-", String(1 + below(13)).padStart(2, "0"), "-", String(below(33)).padStart(2, "0"), pick(["T", "T", " ", "t", ""]), String(below(26)).padStart(2, "0"), ":", String(below(61)).padStart(2, "0"), pick([":", ":", ""]), String(below(61)).padStart(2, "0"), pick([".", "", "."]), num(), pick(["", "Z", "+01:00", "-0530", "+1", "+24:00", " GMT", "z", "+01:60"])];
    const cut = below(parts.length + 1);
    let t = parts.slice(0, cut).join("");
    if (below(3) === 0) t = t.replace(/\d/, pick(["", "x", "1", " "]));
    rows.push([t, Number.isNaN(Date.parse(t)) ? null : Date.parse(t)]);
  }
  // The shapes people write, with random fields (some out of range).
  const months = ["Jan", "February", "mar", "APR", "May", "June", "Jul", "August", "Sep", "Sept", "Oct", "November", "Dec"];
  const days = ["Mon", "Tue,", "Wednesday,", "Thu", "Fri,", "Sat", "Sunday"];
  for (let i = 0; i < 3000; i++) {
    const y = pick([String(1900 + below(200)), String(below(100)).padStart(2, "0"), String(below(100)), "0", String(below(300000)), "275760", "-271821"]);
    const m = pick(months);
    const mn = String(below(14)).padStart(below(2) ? 2 : 1, "0");
    const d = String(below(34)).padStart(below(2) ? 2 : 1, "0");
    const time = pick(["", "", " " + below(25) + ":" + String(below(61)).padStart(2, "0"), " " + below(25) + ":" + String(below(61)).padStart(2, "0") + ":" + String(below(61)).padStart(2, "0"), " " + below(13) + ":" + String(below(60)).padStart(2, "0") + pick([" AM", " PM", "am", " pm", " a.m."]), " " + below(24) + ":" + String(below(60)).padStart(2, "0") + ":" + String(below(60)).padStart(2, "0") + "." + below(10000)]);
    const zone = time === "" && below(2) ? "" : pick(["", "", " GMT", " UTC", " Z", "Z", " +0100", " -0530", " GMT+0100", " GMT-08:00", " +01:00", " EST", " PDT", " UTC+2", " GMT+0100 (Central European Standard Time)", " +1", " +123"]);
    const date = pick([
      `${m} ${d}, ${y}`, `${m} ${d} ${y}`, `${d} ${m} ${y}`, `${pick(days)} ${d} ${m} ${y}`, `${pick(days)} ${m} ${d} ${y}`,
      `${y}/${mn}/${d}`, `${mn}/${d}/${y}`, `${y}-${mn}-${d}`, `${d}-${m}-${y}`, `${y}-${m}-${d}`, `${m} ${d}`, `${d}.${mn}.${y}`,
    ]);
    const t = date + time + zone;
    rows.push([t, Number.isNaN(Date.parse(t)) ? null : Date.parse(t)]);
  }
  write("date-parse.json", rows);
}
