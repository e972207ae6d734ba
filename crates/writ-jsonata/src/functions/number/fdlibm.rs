//! `Math.pow` and `Math.log10` as V8 computes them: fdlibm's algorithms and constants, so
//! that `$power`, and the words and number pictures that lean on powers and logarithms, agree
//! with jsonata-js to the last bit (the platform's `powf`/`log10` may round differently).
//!
//! The same port lives in writ-js (`builtins/math.rs`); it is repeated here because this crate
//! does not depend on writ-js.
// fdlibm's constants are kept as fdlibm writes them.
#![allow(clippy::excessive_precision, clippy::unreadable_literal, clippy::approx_constant)]

/// The high 32 bits of `x`, signed.
fn high(x: f64) -> i32 {
    (x.to_bits() >> 32) as u32 as i32
}

/// The low 32 bits of `x`.
fn low(x: f64) -> u32 {
    x.to_bits() as u32
}

/// The double with high word `high` and low word `low`.
fn from_words(high: u32, low: u32) -> f64 {
    f64::from_bits(u64::from(high) << 32 | u64::from(low))
}

/// `x` with its high word replaced.
fn with_high(x: f64, high: u32) -> f64 {
    from_words(high, low(x))
}

/// `x` with its low word replaced.
fn with_low(x: f64, low: u32) -> f64 {
    f64::from_bits((x.to_bits() & 0xFFFF_FFFF_0000_0000) | u64::from(low))
}

/// `x × 2^n`, correctly rounded.
fn scalbn(x: f64, n: i32) -> f64 {
    let (mut y, mut n) = (x, n);
    let two1023 = f64::from_bits(0x7FE0_0000_0000_0000);
    // 2^-1022 × 2^53: scaling down in two steps without rounding twice.
    let down = f64::from_bits(0x0360_0000_0000_0000);
    if n > 1023 {
        y *= two1023;
        n -= 1023;
        if n > 1023 {
            y *= two1023;
            n -= 1023;
            n = n.min(1023);
        }
    } else if n < -1022 {
        y *= down;
        n += 1022 - 53;
        if n < -1022 {
            y *= down;
            n += 1022 - 53;
            n = n.max(-1022);
        }
    }
    y * f64::from_bits(((0x3FF + n) as u64) << 52)
}

/// ln 2, high part (n·LN2_HI is exact for |n| < 2000).
const LN2_HI: f64 = 6.93147180369123816490e-01;
/// ln 2, low part.
const LN2_LO: f64 = 1.90821492927058770002e-10;
/// A coefficient of fdlibm's polynomial, as published.
const P1: f64 = 1.66666666666666019037e-01;
/// A coefficient of fdlibm's polynomial, as published.
const P2: f64 = -2.77777777770155933842e-03;
/// A coefficient of fdlibm's polynomial, as published.
const P3: f64 = 6.61375632143793436117e-05;
/// A coefficient of fdlibm's polynomial, as published.
const P4: f64 = -1.65339022054652515390e-06;
/// A coefficient of fdlibm's polynomial, as published.
const P5: f64 = 4.13813679705723846039e-08;
/// 2^54, to scale subnormals up.
const TWO54: f64 = 1.80143985094819840000e+16;
/// A coefficient of fdlibm's polynomial, as published.
const LG1: f64 = 6.666666666666735130e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG2: f64 = 3.999999999940941908e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG3: f64 = 2.857142874366239149e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG4: f64 = 2.222219843214978396e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG5: f64 = 1.818357216161805012e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG6: f64 = 1.531383769920937332e-01;
/// A coefficient of fdlibm's polynomial, as published.
const LG7: f64 = 1.479819860511658591e-01;

/// `Math.log`.
fn log(x: f64) -> f64 {
    let (mut hx, lx) = (high(x), low(x));
    let mut x = x;
    let mut k = 0i32;
    if hx < 0x00100000 {
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= TWO54;
        hx = high(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    x = with_high(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let f = x - 1.0;
    let dk = f64::from(k);
    if (0x000FFFFF & (2 + hx)) < 3 {
        if f == 0.0 {
            return if k == 0 { 0.0 } else { dk * LN2_HI + dk * LN2_LO };
        }
        let r = f * f * (0.5 - 0.33333333333333333 * f);
        return if k == 0 {
            f - r
        } else {
            dk * LN2_HI - ((r - dk * LN2_LO) - f)
        };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let mut i = hx - 0x6147A;
    let w = z * z;
    let j = 0x6B851 - hx;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    i |= j;
    let r = t2 + t1;
    if i > 0 {
        let hfsq = 0.5 * f * f;
        if k == 0 {
            f - (hfsq - s * (hfsq + r))
        } else {
            dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
        }
    } else if k == 0 {
        f - s * (f - r)
    } else {
        dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f)
    }
}

/// `Math.log10`.
pub(in crate::functions) fn log10(x: f64) -> f64 {
    /// 1/ln 10.
    const IVLN10: f64 = 4.34294481903251816668e-01;
    /// log10(2), high part.
    const LOG10_2HI: f64 = 3.01029995663611771306e-01;
    /// log10(2), low part.
    const LOG10_2LO: f64 = 3.69423907715893078616e-13;
    let (mut hx, mut lx) = (high(x), low(x));
    let mut x = x;
    let mut k = 0i32;
    if hx < 0x00100000 {
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= TWO54;
        hx = high(x);
        lx = low(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0;
    }
    k += (hx >> 20) - 1023;
    let i = i32::from(k < 0);
    hx = (hx & 0x000FFFFF) | ((0x3FF - i) << 20);
    let y = f64::from(k + i);
    x = from_words(hx as u32, lx);
    let z = y * LOG10_2LO + IVLN10 * log(x);
    z + y * LOG10_2HI
}

/// `Math.pow` and `**`: fdlibm's `pow`, whose special cases are JavaScript's.
pub(in crate::functions) fn pow(x: f64, y: f64) -> f64 {
    /// 1 and 1.5, the two reduction points.
    const BP: [f64; 2] = [1.0, 1.5];
    /// log2(1.5), high part (0 for 1).
    const DP_H: [f64; 2] = [0.0, 5.84962487220764160156e-01];
    /// log2(1.5), low part.
    const DP_L: [f64; 2] = [0.0, 1.35003920212974897128e-08];
    /// 2^53.
    const TWO53: f64 = 9007199254740992.0;
    /// Huge, to overflow.
    const HUGE: f64 = 1.0e300;
    /// Tiny, to round the right way.
    const TINY: f64 = 1.0e-300;
    /// A coefficient of fdlibm's polynomial, as published.
    const L1: f64 = 5.99999999999994648725e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const L2: f64 = 4.28571428578550184252e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const L3: f64 = 3.33333329818377432918e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const L4: f64 = 2.72728123808534006489e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const L5: f64 = 2.30660745775561754067e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const L6: f64 = 2.06975017800338417784e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const LG2: f64 = 6.93147180559945286227e-01;
    /// ln 2, high part.
    const LG2_H: f64 = 6.93147182464599609375e-01;
    /// ln 2, low part.
    const LG2_L: f64 = -1.90465429995776804525e-09;
    /// How far past 1024 still rounds below overflow.
    const OVT: f64 = 8.0085662595372944372e-17;
    /// 2/(3 ln 2).
    const CP: f64 = 9.61796693925975554329e-01;
    /// 2/(3 ln 2), high part.
    const CP_H: f64 = 9.61796700954437255859e-01;
    /// 2/(3 ln 2), low part.
    const CP_L: f64 = -7.02846165095275826516e-09;
    /// 1/ln 2.
    const IVLN2: f64 = 1.44269504088896338700e+00;
    /// 1/ln 2 to 24 bits.
    const IVLN2_H: f64 = 1.44269502162933349609e+00;
    /// 1/ln 2, the rest.
    const IVLN2_L: f64 = 1.92596299112661746887e-08;

    let (hx, lx) = (high(x), low(x));
    let (hy, ly) = (high(y), low(y));
    let mut ix = hx & 0x7FFFFFFF;
    let iy = hy & 0x7FFFFFFF;

    if (iy as u32 | ly) == 0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }

    // Whether y is an integer when x < 0: 0 no, 1 odd, 2 even.
    let mut yisint = 0;
    if hx < 0 {
        if iy >= 0x43400000 {
            yisint = 2;
        } else if iy >= 0x3FF00000 {
            let k = (iy >> 20) - 0x3FF;
            if k > 20 {
                let j = ly.wrapping_shr((52 - k) as u32);
                if j.wrapping_shl((52 - k) as u32) == ly {
                    yisint = 2 - (j & 1) as i32;
                }
            } else if ly == 0 {
                let j = iy.wrapping_shr((20 - k) as u32);
                if j.wrapping_shl((20 - k) as u32) == iy {
                    yisint = 2 - (j & 1);
                }
            }
        }
    }

    if ly == 0 {
        if iy == 0x7FF00000 {
            // y is ±Infinity.
            if ((ix - 0x3FF00000) as u32 | lx) == 0 {
                // (±1) ** ±Infinity is NaN in JavaScript.
                return f64::NAN;
            }
            if ix >= 0x3FF00000 {
                return if hy >= 0 { y } else { 0.0 };
            }
            return if hy < 0 { -y } else { 0.0 };
        }
        if iy == 0x3FF00000 {
            return if hy < 0 { 1.0 / x } else { x };
        }
        if hy == 0x40000000 {
            return x * x;
        }
        if hy == 0x3FE00000 && hx >= 0 {
            return x.sqrt();
        }
    }

    let mut ax = x.abs();
    if lx == 0 && (ix == 0x7FF00000 || ix == 0 || ix == 0x3FF00000) {
        // x is ±0, ±Infinity or ±1.
        let mut z = ax;
        if hy < 0 {
            z = 1.0 / z;
        }
        if hx < 0 {
            if ((ix - 0x3FF00000) | yisint) == 0 {
                z = f64::NAN;
            } else if yisint == 1 {
                z = -z;
            }
        }
        return z;
    }

    let mut n = (hx >> 31) + 1;
    if (n | yisint) == 0 {
        return f64::NAN;
    }
    let s = if (n | (yisint - 1)) == 0 { -1.0 } else { 1.0 };

    let (t1, t2);
    if iy > 0x41E00000 {
        // |y| > 2^31.
        if iy > 0x43F00000 {
            if ix <= 0x3FEFFFFF {
                return if hy < 0 { HUGE * HUGE } else { TINY * TINY };
            }
            if ix >= 0x3FF00000 {
                return if hy > 0 { HUGE * HUGE } else { TINY * TINY };
            }
        }
        if ix < 0x3FEFFFFF {
            return if hy < 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
        if ix > 0x3FF00000 {
            return if hy > 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
        // |1 - x| <= 2^-20: log(x) by its series.
        let t = ax - 1.0;
        let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        let u = IVLN2_H * t;
        let v = t * IVLN2_L - w * IVLN2;
        let t1_full = u + v;
        t1 = with_low(t1_full, 0);
        t2 = v - (t1 - u);
    } else {
        n = 0;
        if ix < 0x00100000 {
            ax *= TWO53;
            n -= 53;
            ix = high(ax);
        }
        n += (ix >> 20) - 0x3FF;
        let j = ix & 0x000FFFFF;
        ix = j | 0x3FF00000;
        let k = if j <= 0x3988E {
            0
        } else if j < 0xBB67A {
            1
        } else {
            n += 1;
            ix -= 0x00100000;
            0
        };
        ax = with_high(ax, ix as u32);

        // ss = s_h + s_l = (x - 1) / (x + 1) or (x - 1.5) / (x + 1.5).
        let u = ax - BP[k];
        let v = 1.0 / (ax + BP[k]);
        let ss = u * v;
        let s_h = with_low(ss, 0);
        let t_h = from_words((((ix >> 1) | 0x20000000) + 0x00080000 + ((k as i32) << 18)) as u32, 0);
        let t_l = ax - (t_h - BP[k]);
        let s_l = v * ((u - s_h * t_h) - s_h * t_l);
        // log(ax).
        let mut s2 = ss * ss;
        let mut r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        let t_h = with_low(3.0 + s2 + r, 0);
        let t_l = r - ((t_h - 3.0) - s2);
        let u = s_h * t_h;
        let v = s_l * t_h + t_l * ss;
        let p_h = with_low(u + v, 0);
        let p_l = v - (p_h - u);
        let z_h = CP_H * p_h;
        let z_l = CP_L * p_h + p_l * CP + DP_L[k];
        let t = f64::from(n);
        t1 = with_low(((z_h + z_l) + DP_H[k]) + t, 0);
        t2 = z_l - (((t1 - t) - DP_H[k]) - z_h);
    }

    // (y1 + y2) · (t1 + t2).
    let y1 = with_low(y, 0);
    let p_l = (y - y1) * t1 + y * t2;
    let mut p_h = y1 * t1;
    let z = p_l + p_h;
    let (j, i) = (high(z), low(z));
    if j >= 0x40900000 {
        if ((j - 0x40900000) as u32 | i) != 0 || p_l + OVT > z - p_h {
            return s * HUGE * HUGE;
        }
    } else if (j & 0x7FFFFFFF) >= 0x4090CC00
        && ((j.wrapping_sub(0xC090CC00u32 as i32)) as u32 | i != 0 || p_l <= z - p_h)
    {
        return s * TINY * TINY;
    }

    // 2^(p_h + p_l).
    let i = j & 0x7FFFFFFF;
    let mut k = (i >> 20) - 0x3FF;
    let mut n = 0i32;
    if i > 0x3FE00000 {
        n = j.wrapping_add(0x00100000i32.wrapping_shr((k + 1) as u32));
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF;
        let t = from_words((n & !0x000FFFFFi32.wrapping_shr(k as u32)) as u32, 0);
        n = ((n & 0x000FFFFF) | 0x00100000).wrapping_shr((20 - k) as u32);
        if j < 0 {
            n = -n;
        }
        p_h -= t;
    }
    let t = with_low(p_l + p_h, 0);
    let u = t * LG2_H;
    let v = (p_l - (t - p_h)) * LG2 + t * LG2_L;
    let z = u + v;
    let w = v - (z - u);
    let t = z * z;
    let t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    let r = (z * t1) / ((t1 - 2.0) - (w + z * w));
    let z = 1.0 - (r - z);
    let j = high(z).wrapping_add(((n as u32) << 20) as i32);
    let z = if (j >> 20) <= 0 {
        scalbn(z, n)
    } else {
        with_high(z, j as u32)
    };
    s * z
}
