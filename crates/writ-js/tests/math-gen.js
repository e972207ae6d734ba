// Writes tests/data/math-<fn>.json: the answers node's Math gives for a few thousand inputs
// per function, as the bit patterns of the doubles (hex), so that the Rust tests can check
// writ's Math functions bit for bit. Run from crates/writ-js: `node tests/math-gen.js`.
// The inputs come from a fixed-seed generator, so the files only change when node does.
"use strict";
const fs = require("fs");
const path = require("path");

let state = 0x9e3779b97f4a7c15n;
function nextBits() {
  // splitmix64
  state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return z ^ (z >> 31n);
}
const view = new DataView(new ArrayBuffer(8));
function fromBits(bits) {
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}
function hex(x) {
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
}
function unit() {
  return Number(nextBits() >> 11n) / 2 ** 53;
}
function pick(list) {
  return list[Number(nextBits() % BigInt(list.length))];
}
const SPECIAL = [0, -0, 1, -1, 0.5, -0.5, 2, -2, Infinity, -Infinity, NaN, Math.PI, -Math.PI, Math.PI / 2,
  Math.PI / 4, 3 * Math.PI / 4, Math.E, 1e-300, -1e-300, 5e-324, -5e-324, 2.2250738585072014e-308,
  1.7976931348623157e308, -1.7976931348623157e308, 1e308, 709.782712893384, 710, -745.1332191019411, -746,
  0.7071067811865476, 1e-8, 1e-16, 1e16, 2 ** 52, 2 ** 53, 1e22, 88.72283905206835, 22, 0.3, 1e-10,
  0.9999999999999999, 1.0000000000000002, 3, 10, 100, 1024, 1e6, 2 ** 31, 2 ** 32, 4503599627370496.5];
// One input drawn from a mix of spreads: small, moderate, large, any exponent, any bits.
function anyDouble(lo, hi) {
  const kind = Number(nextBits() % 8n);
  let x;
  switch (kind) {
    case 0: x = (unit() * 2 - 1) * 1; break;
    case 1: x = (unit() * 2 - 1) * 10; break;
    case 2: x = (unit() * 2 - 1) * 1000; break;
    case 3: x = (unit() * 2 - 1) * 2 ** (Number(nextBits() % 120n) - 60); break;
    case 4: x = fromBits(nextBits()); break;
    case 5: x = (unit() * 2 - 1) * 2 ** (Number(nextBits() % 2000n) - 1000); break;
    case 6: x = (unit() * 2 - 1) * 50; break;
    default: x = pick(SPECIAL) * (1 + (unit() - 0.5) * 2 ** -40);
  }
  if (lo !== undefined && !(x >= lo && x <= hi)) {
    // Fold into the domain, keeping a share of out-of-domain inputs from SPECIAL.
    x = lo + (Math.abs(x) % 1) * (hi - lo);
    if (!Number.isFinite(x)) x = lo;
  }
  return x;
}

const COUNT = 2500;
const ONE = {
  sqrt: [], cbrt: [], log: [0, 1e300], log2: [0, 1e300], log10: [0, 1e300], log1p: [-1, 1e300],
  exp: [-760, 720], expm1: [-60, 720], sin: [], cos: [], tan: [], asin: [-1, 1], acos: [-1, 1], atan: [],
  sinh: [-720, 720], cosh: [-720, 720], tanh: [-30, 30], asinh: [], acosh: [1, 1e300], atanh: [-1, 1],
  fround: [],
};
const TWO = ["pow", "atan2", "hypot"];

const outDir = path.join(__dirname, "data");
for (const [name, domain] of Object.entries(ONE)) {
  const cases = [];
  for (const x of SPECIAL) cases.push([hex(x), hex(Math[name](x))]);
  for (let i = cases.length; i < COUNT; i++) {
    // Three in four inputs inside the function's natural domain, when it has one.
    const x = domain.length && i % 4 !== 0 ? anyDouble(domain[0], domain[1]) : anyDouble();
    cases.push([hex(x), hex(Math[name](x))]);
  }
  fs.writeFileSync(path.join(outDir, `math-${name}.json`), JSON.stringify({ function: name, cases }) + "\n");
}
for (const name of TWO) {
  const cases = [];
  for (const x of SPECIAL) for (const y of [0, -0, 1, -1, 0.5, 2, -2, 3, Infinity, -Infinity, NaN, 1e308]) {
    cases.push([hex(x), hex(y), hex(Math[name](x, y))]);
  }
  for (let i = cases.length; i < COUNT; i++) {
    let x, y;
    if (name === "pow" && i % 3 === 0) {
      // Positive bases near 1 with large exponents: where pow's accuracy is hardest.
      x = 1 + (unit() - 0.5) * 2 ** -(Number(nextBits() % 40n));
      y = (unit() - 0.5) * 2 ** (Number(nextBits() % 50n));
    } else if (name === "pow" && i % 3 === 1) {
      x = anyDouble();
      y = Math.trunc((unit() - 0.5) * 200);
    } else {
      x = anyDouble();
      y = anyDouble();
    }
    cases.push([hex(x), hex(y), hex(Math[name](x, y))]);
  }
  fs.writeFileSync(path.join(outDir, `math-${name}.json`), JSON.stringify({ function: name, cases }) + "\n");
}
