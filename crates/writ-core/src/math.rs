//! JavaScript's transcendental math, bit for bit: the functions of fdlibm (V8's `ieee754`
//! namespace) that `Math.*`, `**` and JSONata's numeric built-ins compute with, written from
//! fdlibm's published algorithms and constants. Every step matters for the last bit: the order
//! of operations, the splitting of words, and the special cases are fdlibm's. Rust's own `f64`
//! methods (libm) differ from V8 in the last bit on many inputs; engines that must agree with
//! JavaScript use these.

// fdlibm's constants are kept as fdlibm writes them, even where they equal a `consts` value.
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

// ------------------------------------------------------------ trigonometry

/// 2/π in 24-bit pieces, for reducing large arguments.
const TWO_OVER_PI: [i32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E,
    0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
];

/// High words of n·π/2 for n = 1..32: arguments this close to them need more of π.
const NPIO2_HW: [i32; 32] = [
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB, 0x402C463A,
    0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
    0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC,
    0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
];

/// π/2 in 24-bit pieces.
const PIO2: [f64; 8] = [
    1.57079625129699707031e+00,
    7.54978941586159635335e-08,
    5.39030252995776476554e-15,
    3.28200341580791294123e-22,
    1.27065575308067607349e-29,
    1.22933308981111328932e-36,
    2.73370053816464559624e-44,
    2.16741683877804819444e-51,
];

/// 2^24.
const TWO24: f64 = 1.67772160000000000000e+07;
/// 2^-24.
const TWON24: f64 = 5.96046447753906250000e-08;

/// `x` reduced modulo π/2 into `y[0] + y[1]`, returning the quadrant count.
fn rem_pio2(x: f64, y: &mut [f64; 2]) -> i32 {
    /// 2/π to 53 bits.
    const INVPIO2: f64 = 6.36619772367581382433e-01;
    /// The first 33 bits of π/2.
    const PIO2_1: f64 = 1.57079632673412561417e+00;
    /// π/2 less `PIO2_1`.
    const PIO2_1T: f64 = 6.07710050650619224932e-11;
    /// The second 33 bits of π/2.
    const PIO2_2: f64 = 6.07710050630396597660e-11;
    /// π/2 less `PIO2_1` and `PIO2_2`.
    const PIO2_2T: f64 = 2.02226624879595063154e-21;
    /// The third 33 bits of π/2.
    const PIO2_3: f64 = 2.02226624871116645580e-21;
    /// π/2 less the first 99 bits.
    const PIO2_3T: f64 = 8.47842766036889956997e-32;

    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        *y = [x, 0.0];
        return 0;
    }
    if ix < 0x4002D97C {
        // |x| < 3π/4: n = ±1.
        if hx > 0 {
            let mut z = x - PIO2_1;
            if ix != 0x3FF921FB {
                y[0] = z - PIO2_1T;
                y[1] = (z - y[0]) - PIO2_1T;
            } else {
                z -= PIO2_2;
                y[0] = z - PIO2_2T;
                y[1] = (z - y[0]) - PIO2_2T;
            }
            return 1;
        }
        let mut z = x + PIO2_1;
        if ix != 0x3FF921FB {
            y[0] = z + PIO2_1T;
            y[1] = (z - y[0]) + PIO2_1T;
        } else {
            z += PIO2_2;
            y[0] = z + PIO2_2T;
            y[1] = (z - y[0]) + PIO2_2T;
        }
        return -1;
    }
    if ix <= 0x413921FB {
        // |x| up to 2^19·π/2.
        let t = x.abs();
        let n = (t * INVPIO2 + 0.5) as i32;
        let fnn = f64::from(n);
        let mut r = t - fnn * PIO2_1;
        let mut w = fnn * PIO2_1T;
        let near_multiple = usize::try_from(n - 1)
            .ok()
            .and_then(|i| NPIO2_HW.get(i))
            .is_some_and(|&hw| hw == ix);
        if n < 32 && !near_multiple {
            y[0] = r - w;
        } else {
            let j = ix >> 20;
            y[0] = r - w;
            let mut i = j - ((high(y[0]) >> 20) & 0x7FF);
            if i > 16 {
                let t = r;
                w = fnn * PIO2_2;
                r = t - w;
                w = fnn * PIO2_2T - ((t - r) - w);
                y[0] = r - w;
                i = j - ((high(y[0]) >> 20) & 0x7FF);
                if i > 49 {
                    let t = r;
                    w = fnn * PIO2_3;
                    r = t - w;
                    w = fnn * PIO2_3T - ((t - r) - w);
                    y[0] = r - w;
                }
            }
        }
        y[1] = (r - y[0]) - w;
        if hx < 0 {
            y[0] = -y[0];
            y[1] = -y[1];
            return -n;
        }
        return n;
    }
    if ix >= 0x7FF00000 {
        *y = [f64::NAN, f64::NAN];
        return 0;
    }
    // Large arguments: |x| split into 24-bit pieces scaled by 2^-e0.
    let e0 = (ix >> 20) - 1046;
    let mut z = from_words((ix - (e0 << 20)) as u32, low(x));
    let mut tx = [0.0f64; 3];
    for piece in tx.iter_mut().take(2) {
        *piece = f64::from(z as i32);
        z = (z - *piece) * TWO24;
    }
    tx[2] = z;
    let mut nx = 3;
    while nx > 1 && tx[nx - 1] == 0.0 {
        nx -= 1;
    }
    let n = kernel_rem_pio2(&tx[..nx], y, e0);
    if hx < 0 {
        y[0] = -y[0];
        y[1] = -y[1];
        return -n;
    }
    n
}

/// The reduction of a large argument (given as 24-bit pieces `x` scaled by 2^e0) modulo
/// π/2, to double-double precision in `y`; returns the quadrant count mod 8.
fn kernel_rem_pio2(x: &[f64], y: &mut [f64; 2], e0: i32) -> i32 {
    /// Terms of 2/π used at first (for 64-bit precision, as V8 asks).
    const JK: usize = 4;
    /// Terms of π/2 used.
    const JP: usize = JK;
    /// Room for the working arrays.
    const SIZE: usize = 24;
    let ipio2 = |index: i64| {
        usize::try_from(index)
            .ok()
            .and_then(|i| TWO_OVER_PI.get(i))
            .map_or(0.0, |&v| f64::from(v))
    };
    let jx = x.len() - 1;
    let jv = ((e0 - 3) / 24).max(0);
    let mut q0 = e0 - 24 * (jv + 1);
    let mut f = [0.0f64; SIZE];
    let mut q = [0.0f64; SIZE];
    let mut iq = [0i32; SIZE];
    let mut fq = [0.0f64; SIZE];

    let base = i64::from(jv) - jx as i64;
    for (i, slot) in f.iter_mut().enumerate().take(jx + JK + 1) {
        *slot = ipio2(base + i as i64);
    }
    for i in 0..=JK {
        let mut fw = 0.0;
        for j in 0..=jx {
            fw += x[j] * f[jx + i - j];
        }
        q[i] = fw;
    }
    let mut jz = JK;
    loop {
        // Distill q[] into iq[], reversed.
        let mut z = q[jz];
        let mut i = 0;
        let mut j = jz;
        while j > 0 {
            let fw = f64::from((TWON24 * z) as i32);
            iq[i] = (z - TWO24 * fw) as i32;
            z = q[j - 1] + fw;
            i += 1;
            j -= 1;
        }
        z = scalbn(z, q0);
        z -= 8.0 * (z * 0.125).floor();
        let mut n = z as i32;
        z -= f64::from(n);
        let mut ih = 0;
        if q0 > 0 {
            let i = iq[jz - 1].wrapping_shr((24 - q0) as u32);
            n += i;
            iq[jz - 1] -= i.wrapping_shl((24 - q0) as u32);
            ih = iq[jz - 1].wrapping_shr((23 - q0) as u32);
        } else if q0 == 0 {
            ih = iq[jz - 1] >> 23;
        } else if z >= 0.5 {
            ih = 2;
        }
        if ih > 0 {
            // q > 0.5: compute 1 - q.
            n += 1;
            let mut carry = 0;
            for slot in iq.iter_mut().take(jz) {
                let j = *slot;
                if carry == 0 {
                    if j != 0 {
                        carry = 1;
                        *slot = 0x1000000 - j;
                    }
                } else {
                    *slot = 0xFFFFFF - j;
                }
            }
            if q0 == 1 {
                iq[jz - 1] &= 0x7FFFFF;
            } else if q0 == 2 {
                iq[jz - 1] &= 0x3FFFFF;
            }
            if ih == 2 {
                z = 1.0 - z;
                if carry != 0 {
                    z -= scalbn(1.0, q0);
                }
            }
        }
        if z == 0.0 {
            let j = iq[JK..jz].iter().fold(0, |acc, &v| acc | v);
            if j == 0 {
                // Everything cancelled: bring in more of 2/π and start over.
                let mut k = 1;
                while k <= JK && iq[JK - k] == 0 {
                    k += 1;
                }
                if jz + k + jx + 2 >= SIZE {
                    break;
                }
                for i in jz + 1..=jz + k {
                    f[jx + i] = ipio2(i64::from(jv) + i as i64);
                    let mut fw = 0.0;
                    for j in 0..=jx {
                        fw += x[j] * f[jx + i - j];
                    }
                    q[i] = fw;
                }
                jz += k;
                continue;
            }
        }
        // Chop off zero terms, or split z into 24-bit pieces.
        if z == 0.0 {
            jz -= 1;
            q0 -= 24;
            while jz > 0 && iq[jz] == 0 {
                jz -= 1;
                q0 -= 24;
            }
        } else {
            z = scalbn(z, -q0);
            if z >= TWO24 {
                let fw = f64::from((TWON24 * z) as i32);
                iq[jz] = (z - TWO24 * fw) as i32;
                jz += 1;
                q0 += 24;
                iq[jz] = fw as i32;
            } else {
                iq[jz] = z as i32;
            }
        }
        // The pieces as doubles, then times π/2.
        let mut fw = scalbn(1.0, q0);
        for i in (0..=jz).rev() {
            q[i] = fw * f64::from(iq[i]);
            fw *= TWON24;
        }
        for i in (0..=jz).rev() {
            let mut fw = 0.0;
            let mut k = 0;
            while k <= JP && k <= jz - i {
                fw += PIO2[k] * q[i + k];
                k += 1;
            }
            fq[jz - i] = fw;
        }
        let mut fw = 0.0;
        for i in (0..=jz).rev() {
            fw += fq[i];
        }
        y[0] = if ih == 0 { fw } else { -fw };
        fw = fq[0] - fw;
        for value in fq.iter().take(jz + 1).skip(1) {
            fw += value;
        }
        y[1] = if ih == 0 { fw } else { -fw };
        return n & 7;
    }
    *y = [f64::NAN, f64::NAN];
    0
}

/// cos on [-π/4, π/4], `y` the tail of `x`.
fn kernel_cos(x: f64, y: f64) -> f64 {
    /// A coefficient of fdlibm's polynomial, as published.
    const C1: f64 = 4.16666666666666019037e-02;
    /// A coefficient of fdlibm's polynomial, as published.
    const C2: f64 = -1.38888888888741095749e-03;
    /// A coefficient of fdlibm's polynomial, as published.
    const C3: f64 = 2.48015872894767294178e-05;
    /// A coefficient of fdlibm's polynomial, as published.
    const C4: f64 = -2.75573143513906633035e-07;
    /// A coefficient of fdlibm's polynomial, as published.
    const C5: f64 = 2.08757232129817482790e-09;
    /// A coefficient of fdlibm's polynomial, as published.
    const C6: f64 = -1.13596475577881948265e-11;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 && x as i32 == 0 {
        return 1.0;
    }
    let z = x * x;
    let r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if ix < 0x3FD33333 {
        return 1.0 - (0.5 * z - (z * r - x * y));
    }
    let qx = if ix > 0x3FE90000 {
        0.28125
    } else {
        from_words((ix - 0x00200000) as u32, 0)
    };
    let hz = 0.5 * z - qx;
    let a = 1.0 - qx;
    a - (hz - (z * r - x * y))
}

/// sin on [-π/4, π/4], `y` the tail of `x` (used when `has_tail`).
fn kernel_sin(x: f64, y: f64, has_tail: bool) -> f64 {
    /// A coefficient of fdlibm's polynomial, as published.
    const S1: f64 = -1.66666666666666324348e-01;
    /// A coefficient of fdlibm's polynomial, as published.
    const S2: f64 = 8.33333333332248946124e-03;
    /// A coefficient of fdlibm's polynomial, as published.
    const S3: f64 = -1.98412698298579493134e-04;
    /// A coefficient of fdlibm's polynomial, as published.
    const S4: f64 = 2.75573137070700676789e-06;
    /// A coefficient of fdlibm's polynomial, as published.
    const S5: f64 = -2.50507602534068634195e-08;
    /// A coefficient of fdlibm's polynomial, as published.
    const S6: f64 = 1.58969099521155010221e-10;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 && x as i32 == 0 {
        return x;
    }
    let z = x * x;
    let v = z * x;
    let r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    if !has_tail {
        x + v * (S1 + z * r)
    } else {
        x - ((z * (0.5 * y - v * r) - y) - v * S1)
    }
}

/// tan on [-π/4, π/4] (`k` = 1), or -1/tan (`k` = -1); `y` the tail of `x`.
fn kernel_tan(x: f64, y: f64, k: i32) -> f64 {
    /// tan's odd polynomial on [0, 0.6744].
    const T: [f64; 13] = [
        3.33333333333334091986e-01,
        1.33333333333201242699e-01,
        5.39682539762260521377e-02,
        2.18694882948595424599e-02,
        8.86323982359930005737e-03,
        3.59207910759131235356e-03,
        1.45620945432529025516e-03,
        5.88041240820264096874e-04,
        2.46463134818469906812e-04,
        7.81794442939557092300e-05,
        7.14072491382608190305e-05,
        -1.85586374855275456654e-05,
        2.59073051863633712884e-05,
    ];
    /// π/4, high part.
    const PIO4: f64 = 7.85398163397448278999e-01;
    /// π/4, low part.
    const PIO4LO: f64 = 3.06161699786838301793e-17;
    let (mut x, mut y) = (x, y);
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix < 0x3E300000 && x as i32 == 0 {
        if (ix as u32 | low(x) | (k + 1) as u32) == 0 {
            return 1.0 / x.abs();
        }
        if k == 1 {
            return x;
        }
        // -1 / (x + y), carefully.
        let w = x + y;
        let z = with_low(w, 0);
        let v = y - (z - x);
        let a = -1.0 / w;
        let t = with_low(a, 0);
        let s = 1.0 + t * z;
        return t + a * (s + t * v);
    }
    let big = ix >= 0x3FE59428;
    if big {
        if hx < 0 {
            x = -x;
            y = -y;
        }
        let z = PIO4 - x;
        let w = PIO4LO - y;
        x = z + w;
        y = 0.0;
    }
    let z = x * x;
    let w = z * z;
    let mut r = T[1] + w * (T[3] + w * (T[5] + w * (T[7] + w * (T[9] + w * T[11]))));
    let v = z * (T[2] + w * (T[4] + w * (T[6] + w * (T[8] + w * (T[10] + w * T[12])))));
    let s = z * x;
    r = y + z * (s * (r + v) + y);
    r += T[0] * s;
    let w = x + r;
    if big {
        let v = f64::from(k);
        return f64::from(1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - (w * w / (w + v) - r)));
    }
    if k == 1 {
        return w;
    }
    let z = with_low(w, 0);
    let v = r - (z - x);
    let a = -1.0 / w;
    let t = with_low(a, 0);
    let s = 1.0 + t * z;
    t + a * (s + t * v)
}

/// `Math.sin`.
pub fn sin(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_sin(x, 0.0, false);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let mut y = [0.0; 2];
    match rem_pio2(x, &mut y) & 3 {
        0 => kernel_sin(y[0], y[1], true),
        1 => kernel_cos(y[0], y[1]),
        2 => -kernel_sin(y[0], y[1], true),
        _ => -kernel_cos(y[0], y[1]),
    }
}

/// `Math.cos`.
pub fn cos(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_cos(x, 0.0);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let mut y = [0.0; 2];
    match rem_pio2(x, &mut y) & 3 {
        0 => kernel_cos(y[0], y[1]),
        1 => -kernel_sin(y[0], y[1], true),
        2 => -kernel_cos(y[0], y[1]),
        _ => kernel_sin(y[0], y[1], true),
    }
}

/// `Math.tan`.
pub fn tan(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_tan(x, 0.0, 1);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let mut y = [0.0; 2];
    let n = rem_pio2(x, &mut y);
    kernel_tan(y[0], y[1], 1 - ((n & 1) << 1))
}

// ------------------------------------------------------------ inverse trigonometry

/// π/2, high part.
const PIO2_HI: f64 = 1.57079632679489655800e+00;
/// π/2, low part.
const PIO2_LO: f64 = 6.12323399573676603587e-17;
/// π/4, high part.
const PIO4_HI: f64 = 7.85398163397448278999e-01;
/// A coefficient of fdlibm's polynomial, as published.
const PS0: f64 = 1.66666666666666657415e-01;
/// A coefficient of fdlibm's polynomial, as published.
const PS1: f64 = -3.25565818622400915405e-01;
/// A coefficient of fdlibm's polynomial, as published.
const PS2: f64 = 2.01212532134862925881e-01;
/// A coefficient of fdlibm's polynomial, as published.
const PS3: f64 = -4.00555345006794114027e-02;
/// A coefficient of fdlibm's polynomial, as published.
const PS4: f64 = 7.91534994289814532176e-04;
/// A coefficient of fdlibm's polynomial, as published.
const PS5: f64 = 3.47933107596021167570e-05;
/// A coefficient of fdlibm's polynomial, as published.
const QS1: f64 = -2.40339491173441421878e+00;
/// A coefficient of fdlibm's polynomial, as published.
const QS2: f64 = 2.02094576023350569471e+00;
/// A coefficient of fdlibm's polynomial, as published.
const QS3: f64 = -6.88283971605453293030e-01;
/// A coefficient of fdlibm's polynomial, as published.
const QS4: f64 = 7.70381505559019352791e-02;

/// The numerator and denominator of asin's rational approximation at `t`.
fn asin_ratio(t: f64) -> (f64, f64) {
    let p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
    let q = 1.0 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
    (p, q)
}

/// `Math.asin`.
pub fn asin(x: f64) -> f64 {
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        if ((ix - 0x3FF00000) as u32 | low(x)) == 0 {
            return x * PIO2_HI + x * PIO2_LO;
        }
        return f64::NAN;
    }
    if ix < 0x3FE00000 {
        if ix < 0x3E400000 {
            return x;
        }
        let t = x * x;
        let (p, q) = asin_ratio(t);
        let w = p / q;
        return x + x * w;
    }
    let w = 1.0 - x.abs();
    let t = w * 0.5;
    let (p, q) = asin_ratio(t);
    let s = t.sqrt();
    let t = if ix >= 0x3FEF3333 {
        let w = p / q;
        PIO2_HI - (2.0 * (s + s * w) - PIO2_LO)
    } else {
        let w = with_low(s, 0);
        let c = (t - w * w) / (s + w);
        let r = p / q;
        let p = 2.0 * s * r - (PIO2_LO - 2.0 * c);
        let q = PIO4_HI - 2.0 * w;
        PIO4_HI - (p - q)
    };
    if hx > 0 { t } else { -t }
}

/// `Math.acos`.
pub fn acos(x: f64) -> f64 {
    /// π.
    const PI: f64 = 3.14159265358979311600e+00;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        if ((ix - 0x3FF00000) as u32 | low(x)) == 0 {
            return if hx > 0 { 0.0 } else { PI + 2.0 * PIO2_LO };
        }
        return f64::NAN;
    }
    if ix < 0x3FE00000 {
        if ix <= 0x3C600000 {
            return PIO2_HI + PIO2_LO;
        }
        let z = x * x;
        let (p, q) = asin_ratio(z);
        let r = p / q;
        return PIO2_HI - (x - (PIO2_LO - x * r));
    }
    if hx < 0 {
        let z = (1.0 + x) * 0.5;
        let (p, q) = asin_ratio(z);
        let s = z.sqrt();
        let r = p / q;
        let w = r * s - PIO2_LO;
        return PI - 2.0 * (s + w);
    }
    let z = (1.0 - x) * 0.5;
    let s = z.sqrt();
    let df = with_low(s, 0);
    let c = (z - df * df) / (s + df);
    let (p, q) = asin_ratio(z);
    let r = p / q;
    let w = r * s + c;
    2.0 * (df + w)
}

/// `Math.atan`.
pub fn atan(x: f64) -> f64 {
    /// atan(0.5), atan(1), atan(1.5), atan(∞): high parts.
    const ATANHI: [f64; 4] = [
        4.63647609000806093515e-01,
        7.85398163397448278999e-01,
        9.82793723247329054082e-01,
        1.57079632679489655800e+00,
    ];
    /// The same, low parts.
    const ATANLO: [f64; 4] = [
        2.26987774529616870924e-17,
        3.06161699786838301793e-17,
        1.39033110312309984516e-17,
        6.12323399573676603587e-17,
    ];
    /// atan's polynomial on [0, 7/16].
    const AT: [f64; 11] = [
        3.33333333333329318027e-01,
        -1.99999999998764832476e-01,
        1.42857142725034663711e-01,
        -1.11111104054623557880e-01,
        9.09088713343650656196e-02,
        -7.69187620504482999495e-02,
        6.66107313738753120669e-02,
        -5.83357013379057348645e-02,
        4.97687799461593236017e-02,
        -3.65315727442169155270e-02,
        1.62858201153657823623e-02,
    ];
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x44100000 {
        // |x| >= 2^66.
        if x.is_nan() {
            return x + x;
        }
        return if hx > 0 {
            ATANHI[3] + ATANLO[3]
        } else {
            -ATANHI[3] - ATANLO[3]
        };
    }
    let mut x = x;
    let id: Option<usize> = if ix < 0x3FDC0000 {
        if ix < 0x3E400000 {
            return x;
        }
        None
    } else {
        x = x.abs();
        if ix < 0x3FF30000 {
            if ix < 0x3FE60000 {
                x = (2.0 * x - 1.0) / (2.0 + x);
                Some(0)
            } else {
                x = (x - 1.0) / (x + 1.0);
                Some(1)
            }
        } else if ix < 0x40038000 {
            x = (x - 1.5) / (1.0 + 1.5 * x);
            Some(2)
        } else {
            x = -1.0 / x;
            Some(3)
        }
    };
    let z = x * x;
    let w = z * z;
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    match id {
        None => x - x * (s1 + s2),
        Some(id) => {
            let z = ATANHI[id] - ((x * (s1 + s2) - ATANLO[id]) - x);
            if hx < 0 { -z } else { z }
        }
    }
}

/// `Math.atan2(y, x)`.
pub fn atan2(y: f64, x: f64) -> f64 {
    /// Tiny, to round the right way.
    const TINY: f64 = 1.0e-300;
    /// π/4.
    const PI_O_4: f64 = 7.8539816339744827900E-01;
    /// π/2.
    const PI_O_2: f64 = 1.5707963267948965580E+00;
    /// π.
    const PI: f64 = 3.1415926535897931160E+00;
    /// π, low part.
    const PI_LO: f64 = 1.2246467991473531772E-16;
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let (hx, lx) = (high(x), low(x));
    let ix = hx & 0x7FFFFFFF;
    let (hy, ly) = (high(y), low(y));
    let iy = hy & 0x7FFFFFFF;
    if (hx.wrapping_sub(0x3FF00000) as u32 | lx) == 0 {
        return atan(y);
    }
    // 2·sign(x) + sign(y).
    let m = ((hy >> 31) & 1) | ((hx >> 30) & 2);
    if (iy as u32 | ly) == 0 {
        return match m {
            0 | 1 => y,
            2 => PI + TINY,
            _ => -PI - TINY,
        };
    }
    if (ix as u32 | lx) == 0 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }
    if ix == 0x7FF00000 {
        if iy == 0x7FF00000 {
            return match m {
                0 => PI_O_4 + TINY,
                1 => -PI_O_4 - TINY,
                2 => 3.0 * PI_O_4 + TINY,
                _ => -3.0 * PI_O_4 - TINY,
            };
        }
        return match m {
            0 => 0.0,
            1 => -0.0,
            2 => PI + TINY,
            _ => -PI - TINY,
        };
    }
    if iy == 0x7FF00000 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }
    let k = (iy - ix) >> 20;
    let (z, m) = if k > 60 {
        (PI_O_2 + 0.5 * PI_LO, m & 1)
    } else if hx < 0 && k < -60 {
        (0.0, m)
    } else {
        (atan((y / x).abs()), m)
    };
    match m {
        0 => z,
        1 => -z,
        2 => PI - (z - PI_LO),
        _ => (z - PI_LO) - PI,
    }
}

// ------------------------------------------------------------ exponentials

/// ln 2, high part (n·LN2_HI is exact for |n| < 2000).
const LN2_HI: f64 = 6.93147180369123816490e-01;
/// ln 2, low part.
const LN2_LO: f64 = 1.90821492927058770002e-10;
/// 1/ln 2.
const INVLN2: f64 = 1.44269504088896338700e+00;
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

/// `Math.exp`, with V8's exact answer for `exp(1)`.
pub fn exp(x: f64) -> f64 {
    /// Above this the result overflows.
    const O_THRESHOLD: f64 = 7.09782712893383973096e+02;
    /// Below this the result underflows.
    const U_THRESHOLD: f64 = -7.45133219101941108420e+02;
    /// e, answered for exp(1) as V8 does.
    const E: f64 = 2.718281828459045;
    /// 2^-1000.
    const TWOM1000: f64 = 9.33263618503218878990e-302;
    /// 2^1023.
    const TWO1023: f64 = 8.988465674311579539e307;
    let hx_signed = high(x);
    let negative = hx_signed < 0;
    let hx = hx_signed & 0x7FFFFFFF;
    if hx >= 0x40862E42 {
        if hx >= 0x7FF00000 {
            if x.is_nan() {
                return x + x;
            }
            return if negative { 0.0 } else { x };
        }
        if x > O_THRESHOLD {
            return f64::INFINITY;
        }
        if x < U_THRESHOLD {
            return 0.0;
        }
    }
    let mut x = x;
    let (mut hi, mut lo, mut k) = (0.0, 0.0, 0i32);
    if hx > 0x3FD62E42 {
        if hx < 0x3FF0A2B2 {
            // V8 answers e exactly for exp(1).
            if x == 1.0 {
                return E;
            }
            if negative {
                hi = x + LN2_HI;
                lo = -LN2_LO;
                k = -1;
            } else {
                hi = x - LN2_HI;
                lo = LN2_LO;
                k = 1;
            }
        } else {
            k = (INVLN2 * x + if negative { -0.5 } else { 0.5 }) as i32;
            let t = f64::from(k);
            hi = x - t * LN2_HI;
            lo = t * LN2_LO;
        }
        x = hi - lo;
    } else if hx < 0x3E300000 {
        return 1.0 + x;
    }
    let t = x * x;
    let twopk = if k >= -1021 {
        from_words((0x3FF00000 + (k << 20)) as u32, 0)
    } else {
        from_words((0x3FF00000 + ((k + 1000) << 20)) as u32, 0)
    };
    let c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if k == 0 {
        return 1.0 - ((x * c) / (c - 2.0) - x);
    }
    let y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if k >= -1021 {
        if k == 1024 {
            return y * 2.0 * TWO1023;
        }
        return y * twopk;
    }
    y * twopk * TWOM1000
}

/// `Math.expm1`.
pub fn expm1(x: f64) -> f64 {
    /// Above this the result overflows.
    const O_THRESHOLD: f64 = 7.09782712893383973096e+02;
    /// A coefficient of fdlibm's polynomial, as published.
    const Q1: f64 = -3.33333333333331316428e-02;
    /// A coefficient of fdlibm's polynomial, as published.
    const Q2: f64 = 1.58730158725481460165e-03;
    /// A coefficient of fdlibm's polynomial, as published.
    const Q3: f64 = -7.93650757867487942473e-05;
    /// A coefficient of fdlibm's polynomial, as published.
    const Q4: f64 = 4.00821782732936239552e-06;
    /// A coefficient of fdlibm's polynomial, as published.
    const Q5: f64 = -2.01099218183624371326e-07;
    let negative = high(x) < 0;
    let hx = high(x) & 0x7FFFFFFF;
    if hx >= 0x4043687A {
        // |x| >= 56·ln2.
        if hx >= 0x40862E42 {
            if hx >= 0x7FF00000 {
                if x.is_nan() {
                    return x + x;
                }
                return if negative { -1.0 } else { x };
            }
            if x > O_THRESHOLD {
                return f64::INFINITY;
            }
        }
        if negative {
            return -1.0;
        }
    }
    let mut x = x;
    let (k, c) = if hx > 0x3FD62E42 {
        let (hi, lo, k) = if hx < 0x3FF0A2B2 {
            if negative {
                (x + LN2_HI, -LN2_LO, -1)
            } else {
                (x - LN2_HI, LN2_LO, 1)
            }
        } else {
            let k = (INVLN2 * x + if negative { -0.5 } else { 0.5 }) as i32;
            let t = f64::from(k);
            (x - t * LN2_HI, t * LN2_LO, k)
        };
        x = hi - lo;
        (k, (hi - x) - lo)
    } else if hx < 0x3C900000 {
        return x;
    } else {
        (0, 0.0)
    };
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    let t = 3.0 - r1 * hfx;
    let mut e = hxs * ((r1 - t) / (6.0 - x * t));
    if k == 0 {
        return x - (x * e - hxs);
    }
    let twopk = from_words((0x3FF00000 + (k << 20)) as u32, 0);
    e = x * (e - c) - c;
    e -= hxs;
    if k == -1 {
        return 0.5 * (x - e) - 0.5;
    }
    if k == 1 {
        return if x < -0.25 {
            -2.0 * (e - (x + 0.5))
        } else {
            1.0 + 2.0 * (x - e)
        };
    }
    if k <= -2 || k > 56 {
        let mut y = 1.0 - (e - x);
        y = if k == 1024 {
            y * 2.0 * 8.98846567431158e+307
        } else {
            y * twopk
        };
        return y - 1.0;
    }
    if k < 20 {
        let t = from_words((0x3FF00000 - 0x200000i32.wrapping_shr(k as u32)) as u32, 0);
        (t - (e - x)) * twopk
    } else {
        let t = from_words(((0x3FF - k) << 20) as u32, 0);
        (x - (e + t) + 1.0) * twopk
    }
}

// ------------------------------------------------------------ logarithms

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
pub fn log(x: f64) -> f64 {
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

/// `Math.log1p`.
pub fn log1p(x: f64) -> f64 {
    let hx = high(x);
    let ax = hx & 0x7FFFFFFF;
    let mut k = 1i32;
    let (mut f, mut c, mut hu) = (0.0, 0.0, 0i32);
    if hx < 0x3FDA827A {
        if ax >= 0x3FF00000 {
            return if x == -1.0 { f64::NEG_INFINITY } else { f64::NAN };
        }
        if ax < 0x3E200000 {
            if ax < 0x3C900000 {
                return x;
            }
            return x - x * x * 0.5;
        }
        if hx > 0 || hx <= 0xBFD2BEC4u32 as i32 {
            k = 0;
            f = x;
            hu = 1;
        }
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if k != 0 {
        let mut u;
        if hx < 0x43400000 {
            u = 1.0 + x;
            hu = high(u);
            k = (hu >> 20) - 1023;
            c = if k > 0 { 1.0 - (u - x) } else { x - (u - 1.0) };
            c /= u;
        } else {
            u = x;
            hu = high(u);
            k = (hu >> 20) - 1023;
            c = 0.0;
        }
        hu &= 0x000FFFFF;
        if hu < 0x6A09E {
            u = with_high(u, (hu | 0x3FF00000) as u32);
        } else {
            k += 1;
            u = with_high(u, (hu | 0x3FE00000) as u32);
            hu = (0x00100000 - hu) >> 2;
        }
        f = u - 1.0;
    }
    let hfsq = 0.5 * f * f;
    let dk = f64::from(k);
    if hu == 0 {
        if f == 0.0 {
            if k == 0 {
                return 0.0;
            }
            c += dk * LN2_LO;
            return dk * LN2_HI + c;
        }
        let r = hfsq * (1.0 - 0.66666666666666666 * f);
        return if k == 0 {
            f - r
        } else {
            dk * LN2_HI - ((r - (dk * LN2_LO + c)) - f)
        };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
    if k == 0 {
        f - (hfsq - s * (hfsq + r))
    } else {
        dk * LN2_HI - ((hfsq - (s * (hfsq + r) + (dk * LN2_LO + c))) - f)
    }
}

/// `log(1 + f) - f + f²/2` for `1 + f` in [√2/2, √2] (FreeBSD's `k_log1p`).
fn k_log1p(f: f64) -> f64 {
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    s * (hfsq + r)
}

/// `Math.log2` (FreeBSD's extra-precise variant, as V8 has it).
pub fn log2(x: f64) -> f64 {
    /// 1/ln 2, high part.
    const IVLN2HI: f64 = 1.44269504072144627571e+00;
    /// 1/ln 2, low part.
    const IVLN2LO: f64 = 1.67517131648865118353e-10;
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
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    x = with_high(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let y = f64::from(k);
    let f = x - 1.0;
    let hfsq = 0.5 * f * f;
    let r = k_log1p(f);
    let hi = with_low(f - hfsq, 0);
    let lo = (f - hi) - hfsq + r;
    let mut val_hi = hi * IVLN2HI;
    let mut val_lo = (lo + hi) * IVLN2LO + lo * IVLN2HI;
    let w = y + val_hi;
    val_lo += (y - w) + val_hi;
    val_hi = w;
    val_lo + val_hi
}

/// `Math.log10`.
pub fn log10(x: f64) -> f64 {
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

/// `Math.cbrt` (FreeBSD's, as V8 has it).
pub fn cbrt(x: f64) -> f64 {
    /// The exponent bias trick for normal inputs.
    const B1: u32 = 715094163;
    /// The exponent bias trick for subnormal inputs.
    const B2: u32 = 696219795;
    /// A coefficient of fdlibm's polynomial, as published.
    const P0: f64 = 1.87595182427177009643;
    /// A coefficient of fdlibm's polynomial, as published.
    const P1: f64 = -1.88497979543377169875;
    /// A coefficient of fdlibm's polynomial, as published.
    const P2: f64 = 1.621429720105354466140;
    /// A coefficient of fdlibm's polynomial, as published.
    const P3: f64 = -0.758397934778766047437;
    /// A coefficient of fdlibm's polynomial, as published.
    const P4: f64 = 0.145996192886612446982;
    let hx_all = high(x) as u32;
    let sign = hx_all & 0x80000000;
    let hx = hx_all ^ sign;
    if hx >= 0x7FF00000 {
        return x + x;
    }
    let mut t = if hx < 0x00100000 {
        if (hx | low(x)) == 0 {
            return x;
        }
        let t = from_words(0x43500000, 0) * x;
        let high_t = high(t) as u32;
        from_words(sign | ((high_t & 0x7FFFFFFF) / 3 + B2), 0)
    } else {
        from_words(sign | (hx / 3 + B1), 0)
    };
    // A polynomial to 23 bits.
    let r = (t * t) * (t / x);
    t *= (P0 + r * (P1 + r * P2)) + ((r * r) * r) * (P3 + r * P4);
    // Round away from zero to 23 bits.
    t = f64::from_bits((t.to_bits().wrapping_add(0x80000000)) & 0xFFFFFFFFC0000000);
    // One Newton step to 53 bits.
    let s = t * t;
    let mut r = x / s;
    let w = t + t;
    r = (r - t) / (w + r);
    t + t * r
}

// ------------------------------------------------------------ hyperbolic

/// `Math.sinh`.
pub fn sinh(x: f64) -> f64 {
    /// Above this sinh overflows.
    const KSINH_OVERFLOW: f64 = 710.4758600739439;
    /// 2^-28.
    const TWO_M28: f64 = 3.725290298461914e-9;
    /// ln of the largest double, rounded down.
    const LOG_MAXD: f64 = 709.7822265625;
    /// Huge, to overflow with the right sign.
    const SHUGE: f64 = 1.0e307;
    let h = if x < 0.0 { -0.5 } else { 0.5 };
    let ax = x.abs();
    if ax < 22.0 {
        if ax < TWO_M28 {
            return x;
        }
        let t = expm1(ax);
        if ax < 1.0 {
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        return h * (t + t / (t + 1.0));
    }
    if ax < LOG_MAXD {
        return h * exp(ax);
    }
    if ax <= KSINH_OVERFLOW {
        let w = exp(0.5 * ax);
        let t = h * w;
        return t * w;
    }
    x * SHUGE
}

/// `Math.cosh`.
pub fn cosh(x: f64) -> f64 {
    /// Above this cosh overflows.
    const KCOSH_OVERFLOW: f64 = 710.4758600739439;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3FD62E43 {
        let t = expm1(x.abs());
        let w = 1.0 + t;
        if ix < 0x3C800000 {
            return w;
        }
        return 1.0 + (t * t) / (w + w);
    }
    if ix < 0x40360000 {
        let t = exp(x.abs());
        return 0.5 * t + 0.5 / t;
    }
    if ix < 0x40862E42 {
        return 0.5 * exp(x.abs());
    }
    if x.abs() <= KCOSH_OVERFLOW {
        let w = exp(0.5 * x.abs());
        let t = 0.5 * w;
        return t * w;
    }
    if ix >= 0x7FF00000 {
        return x * x;
    }
    f64::INFINITY
}

/// `Math.tanh`.
pub fn tanh(x: f64) -> f64 {
    let jx = high(x);
    let ix = jx & 0x7FFFFFFF;
    if ix >= 0x7FF00000 {
        return if jx >= 0 { 1.0 / x + 1.0 } else { 1.0 / x - 1.0 };
    }
    let z = if ix < 0x40360000 {
        if ix < 0x3E300000 {
            return x;
        }
        if ix >= 0x3FF00000 {
            let t = expm1(2.0 * x.abs());
            1.0 - 2.0 / (t + 2.0)
        } else {
            let t = expm1(-2.0 * x.abs());
            -t / (t + 2.0)
        }
    } else {
        1.0
    };
    if jx >= 0 { z } else { -z }
}

/// `Math.asinh`.
pub fn asinh(x: f64) -> f64 {
    /// ln 2.
    const LN2: f64 = 6.93147180559945286227e-01;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x7FF00000 {
        return x + x;
    }
    if ix < 0x3E300000 {
        return x;
    }
    let w = if ix > 0x41B00000 {
        log(x.abs()) + LN2
    } else if ix > 0x40000000 {
        let t = x.abs();
        log(2.0 * t + 1.0 / ((x * x + 1.0).sqrt() + t))
    } else {
        let t = x * x;
        log1p(x.abs() + t / (1.0 + (1.0 + t).sqrt()))
    };
    if hx > 0 { w } else { -w }
}

/// `Math.acosh`.
pub fn acosh(x: f64) -> f64 {
    /// ln 2.
    const LN2: f64 = 6.93147180559945286227e-01;
    let hx = high(x);
    if hx < 0x3FF00000 {
        return f64::NAN;
    }
    if hx >= 0x41B00000 {
        if hx >= 0x7FF00000 {
            return x + x;
        }
        return log(x) + LN2;
    }
    if ((hx - 0x3FF00000) as u32 | low(x)) == 0 {
        return 0.0;
    }
    if hx > 0x40000000 {
        let t = x * x;
        return log(2.0 * x - 1.0 / (x + (t - 1.0).sqrt()));
    }
    let t = x - 1.0;
    log1p(t + (2.0 * t + t * t).sqrt())
}

/// `Math.atanh`.
pub fn atanh(x: f64) -> f64 {
    let hx = high(x);
    let lx = low(x);
    let ix = hx & 0x7FFFFFFF;
    if (ix as u32 | ((lx | lx.wrapping_neg()) >> 31)) > 0x3FF00000 {
        return f64::NAN;
    }
    if ix == 0x3FF00000 {
        return if x > 0.0 { f64::INFINITY } else { f64::NEG_INFINITY };
    }
    if ix < 0x3E300000 {
        return x;
    }
    let x = with_high(x, ix as u32);
    let t = if ix < 0x3FE00000 {
        let t = x + x;
        0.5 * log1p(t + t * x / (1.0 - x))
    } else {
        0.5 * log1p((x + x) / (1.0 - x))
    };
    if hx >= 0 { t } else { -t }
}

// ------------------------------------------------------------ pow

/// `Math.pow` and `**`: fdlibm's `pow`, whose special cases are JavaScript's.
pub fn pow(x: f64, y: f64) -> f64 {
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
