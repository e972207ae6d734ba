# Writes tests/data/math-f16round.json and tests/data/math-sumPrecise.json: expected answers
# for the two Math functions node 20 lacks, from exact arithmetic (struct's binary16 packing,
# which rounds half to even, and sums of Fractions, which round once). Doubles are written as
# the hex of their bits. Run from crates/writ-js: `python3 tests/math-gen-exact.py`.
import json
import math
import random
import struct
from fractions import Fraction

rng = random.Random(20240611)


def hexbits(x):
    return struct.pack(">d", x).hex()


def f16round(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def any_double():
    kind = rng.randrange(6)
    if kind == 0:
        return struct.unpack(">d", rng.getrandbits(64).to_bytes(8, "big"))[0]
    if kind == 1:
        return rng.uniform(-70000, 70000)
    if kind == 2:
        return rng.uniform(-1, 1) * 2.0 ** rng.randrange(-30, 17)
    if kind == 3:
        # Exactly halfway between two binary16 values, or one unit of 2^-60 either side.
        e = rng.randrange(-24, 16)
        step = 2.0 ** max(e - 10, -24)
        base = rng.randrange(0, 2048) * step
        return math.copysign(base + step / 2 + rng.choice([0, 0, 2.0 ** (e - 60), -(2.0 ** (e - 60))]), rng.choice([1, -1]))
    if kind == 4:
        return rng.choice([65504.0, 65519.99, 65520.0, 65519.0, 2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 2.0 ** -14,
                           6.1e-5, 5.96e-8, 1.0, -0.0, 0.0, 1e300, -1e-300, 5e-324, 2049.0, 2051.0, 4097.0, 0.1, 1 / 3])
    return rng.uniform(-1, 1)


f16 = []
for x in [0.0, -0.0, math.inf, -math.inf, math.nan, 1.5, 65520.0, -65520.0, 65519.99999999999]:
    f16.append([hexbits(x), hexbits(f16round(x))])
while len(f16) < 3000:
    x = any_double()
    f16.append([hexbits(x), hexbits(f16round(x))])

MAX = 1.7976931348623157e308


def exact_sum(xs):
    if any(math.isnan(x) for x in xs) or (math.inf in xs and -math.inf in xs):
        return math.nan
    if math.inf in xs:
        return math.inf
    if -math.inf in xs:
        return -math.inf
    if all(x == 0 and math.copysign(1, x) < 0 for x in xs):
        return -0.0
    total = sum((Fraction(x) for x in xs), Fraction(0))
    try:
        return float(total)
    except OverflowError:
        return math.inf if total > 0 else -math.inf


sums = []
fixed = [
    [], [-0.0], [-0.0, -0.0], [-0.0, 0.0], [0.0], [1e308, 1e308], [MAX, 2.0 ** 970], [MAX, 2.0 ** 970, -(2.0 ** 970)],
    [MAX, -MAX], [MAX, MAX, -MAX], [0.1, 0.2, 0.3], [1e20, 0.1, -1e20], [5e-324, 5e-324], [-5e-324, 5e-324],
    [2.0 ** 53, 1.0], [2.0 ** 53, 1.0, 1.0], [math.inf, 1.0], [math.inf, -math.inf], [math.nan, 1.0], [-math.inf, -1.0],
    [1.0, 2.0 ** -53], [1.0, 2.0 ** -53, 2.0 ** -100], [-1.0, -(2.0 ** -53)], [MAX, MAX * 2 ** -53 / 2], [MAX, 2.0 ** 969], [-MAX, -(2.0 ** 970)],
]
for xs in fixed:
    sums.append([[hexbits(x) for x in xs], hexbits(exact_sum(xs))])
while len(sums) < 1500:
    n = rng.randrange(1, 40)
    kind = rng.randrange(4)
    if kind == 0:
        xs = [any_double() for _ in range(n)]
        xs = [x for x in xs if not math.isnan(x)]
    elif kind == 1:
        # Massive cancellation.
        xs = [rng.uniform(-1, 1) * 2.0 ** rng.randrange(-1074, 1000) for _ in range(n)]
        xs += [-x for x in xs[: n // 2]]
        rng.shuffle(xs)
    elif kind == 2:
        xs = [rng.uniform(-1, 1) * 2.0 ** rng.randrange(-1074, -1000) for _ in range(n)]
    else:
        xs = [rng.choice([MAX, -MAX, 1e308, -1e308, 2.0 ** 970, 1.0, -1.0, 0.5]) for _ in range(n)]
    sums.append([[hexbits(x) for x in xs], hexbits(exact_sum(xs))])

with open("tests/data/math-f16round.json", "w") as out:
    json.dump({"function": "f16round", "cases": f16}, out, separators=(",", ":"))
    out.write("\n")
with open("tests/data/math-sumPrecise.json", "w") as out:
    json.dump({"function": "sumPrecise", "cases": sums}, out, separators=(",", ":"))
    out.write("\n")
