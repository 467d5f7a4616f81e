/* tilec_fp.h: bit-exact number conversions for the host backend and tests.
 *
 * Header-only C17 (also valid C++17), no CUDA and no libm dependency.  It
 * converts between double/float/integers and the narrow formats Tile C uses
 * (float16, bfloat16, tf32, float8 e4m3fn and e5m2) in the four IEEE rounding
 * modes, with the results CUDA gives, so that a kernel run by the host backend
 * produces the same bits as on the GPU.  Every conversion from double rounds
 * exactly once (never double rounding through float), and nothing depends on
 * the floating-point environment (no fesetround), so it is thread-safe and
 * deterministic.  docs/runtime.md, "Number conversions", is the user
 * documentation; CUDA's behaviour it matches is quoted there.
 *
 * Storage: float16/bfloat16 values are uint16_t bit patterns, float8 values
 * uint8_t, tf32 values a float whose 13 low mantissa bits are zero. */
#ifndef TILEC_FP_H
#define TILEC_FP_H
#include <stdint.h>
#include <string.h>

/* Every function is usable on the GPU too when the header is compiled by
 * nvcc, so the host backend and device code share one implementation. */
#if defined(__CUDACC__)
#define TILEC_FP_INLINE static __host__ __device__ inline
#else
#define TILEC_FP_INLINE static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Rounding modes.  For float -> integer conversions they mean PTX's .rni,
 * .rzi, .rmi, .rpi (TILEC_RZ is C's truncating cast).  TILEC_RNA (nearest,
 * ties away from zero) is what cvt.rna.tf32.f32 does; every function accepts
 * it.  An unknown mode value is treated as TILEC_RN. */
enum { TILEC_RN = 0, TILEC_RZ = 1, TILEC_RM = 2, TILEC_RP = 3, TILEC_RNA = 4 };

/* NaN results follow the GPU (measured on sm_90, see docs/runtime.md): a
 * float32 NaN converts to the canonical NaN below, sign dropped (cvt.rn.f16.f32,
 * cvt.rn.bf16.f32, cvt.rn.satfinite.e4m3x2.f32 and the __NV_NOSAT software
 * path alike); a float64 NaN keeps its sign and top payload bits with the
 * quiet bit set (cvt.*.f16.f64, cvt.*.bf16.f64, cvt.*.f32.f64), and for
 * float8 CUDA's __nv_cvt_double_to_fp8 gives 0x7F (e4m3) or 0x7E | top two
 * payload bits (e5m2), with the sign. */
#define TILEC_F16_NAN 0x7FFFu
#define TILEC_BF16_NAN 0x7FFFu
#define TILEC_E4M3_NAN 0x7Fu
#define TILEC_E5M2_NAN 0x7Fu

/* ---- internals (names end in '_'; not part of the API) ------------------ */

enum { TILEC_FP_ZERO_ = 0, TILEC_FP_FINITE_, TILEC_FP_INF_, TILEC_FP_NAN_ };
enum { TILEC_FMT_F16_ = 0, TILEC_FMT_BF16_, TILEC_FMT_E4M3_, TILEC_FMT_E5M2_,
       TILEC_FMT_TF32_, TILEC_FMT_F32_, TILEC_FMT_F64_ };

TILEC_FP_INLINE uint64_t tilec_fp_dbits_(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

TILEC_FP_INLINE double tilec_fp_bitsd_(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

TILEC_FP_INLINE uint32_t tilec_fp_fbits_(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

TILEC_FP_INLINE float tilec_fp_bitsf_(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

TILEC_FP_INLINE int tilec_fp_clz64_(uint64_t m) /* m != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(m);
#else
    int n = 0;
    while (!(m & 0x8000000000000000ull)) { m <<= 1; n++; }
    return n;
#endif
}

/* Splits x into class, sign and (for finite nonzero x) x = m * 2^e exactly. */
TILEC_FP_INLINE int tilec_fp_split_(double x, int *neg, uint64_t *m, int *e)
{
    uint64_t b = tilec_fp_dbits_(x);
    int ex = (int)((b >> 52) & 0x7FF);
    uint64_t f = b & 0xFFFFFFFFFFFFFull;
    *neg = (int)(b >> 63);
    *m = 0;
    *e = 0;
    if (ex == 0x7FF) return f ? TILEC_FP_NAN_ : TILEC_FP_INF_;
    if (ex == 0) {
        if (!f) return TILEC_FP_ZERO_;
        *m = f;
        *e = -1074;
        return TILEC_FP_FINITE_;
    }
    *m = f | 0x10000000000000ull;
    *e = ex - 1075;
    return TILEC_FP_FINITE_;
}

/* Rounds the positive value m * 2^e (m != 0) to a binary format with mbits
 * stored mantissa bits, minimum normal exponent emin and maximum exponent
 * emax, in mode; neg says which way RM/RP go.  Returns the magnitude's bit
 * pattern in the format's (exponent << mbits | mantissa) encoding, or sets
 * *overflow when the correctly rounded magnitude (with unbounded exponent)
 * exceeds maxbits, the largest finite pattern.  The uniform encoding
 * ((E - emin) << mbits) + q works for normals and subnormals alike, and a
 * rounding carry moves into the exponent field by itself. */
TILEC_FP_INLINE uint64_t tilec_fp_round_(int neg, uint64_t m, int e, int mode, int mbits,
                                       int emin, int emax, uint64_t maxbits, int *overflow)
{
    int lz = tilec_fp_clz64_(m);
    int E, qe, shift, cls, up;
    uint64_t q, bits;
    m <<= lz;
    e -= lz;      /* now m is in [2^63, 2^64) */
    E = e + 63;   /* floor(log2(value)) */
    *overflow = 0;
    if (E > emax) {
        *overflow = 1;
        return 0;
    }
    qe = (E > emin ? E : emin) - mbits; /* exponent of the result's unit in the last place */
    shift = qe - e;                     /* >= 63 - mbits >= 11 */
    /* cls: 0 exact, 1 below the halfway point, 2 exactly halfway, 3 above */
    if (shift > 64) {
        q = 0;
        cls = 1;
    } else if (shift == 64) {
        q = 0;
        cls = m == 0x8000000000000000ull ? 2 : 3;
    } else {
        uint64_t rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        q = m >> shift;
        cls = rem == 0 ? 0 : rem < half ? 1 : rem == half ? 2 : 3;
    }
    switch (mode) {
    case TILEC_RZ: up = 0; break;
    case TILEC_RM: up = neg && cls; break;
    case TILEC_RP: up = !neg && cls; break;
    case TILEC_RNA: up = cls >= 2; break;
    default: up = cls == 3 || (cls == 2 && (q & 1)); break;
    }
    bits = ((uint64_t)(E > emin ? E - emin : 0) << mbits) + q + (uint64_t)up;
    if (bits > maxbits) {
        *overflow = 1;
        return 0;
    }
    return bits;
}

/* Encodes a value given as (class, sign, m * 2^e) in format fmt.  sat: clamp
 * overflow and infinities to the largest finite value (CUDA's
 * __NV_SATFINITE).  Without it, overflow gives infinity where the mode rounds
 * away from zero (RN, RNA; RP for positive, RM for negative values) and the
 * largest finite value otherwise, as IEEE 754 says; e4m3fn has no infinity
 * and gives NaN (0x7F with the sign, as CUDA's __NV_NOSAT does).  cls must
 * not be NaN: NaN results depend on the source type and are made by the
 * callers. */
TILEC_FP_INLINE uint64_t tilec_fp_encode_(int fmt, int cls, int neg, uint64_t m, int e, int mode,
                                        int sat)
{
    int mbits, emin, emax, width, pad = 0, ovf = 0;
    uint64_t maxbits, infbits, sign, mag;
    switch (fmt) {
    case TILEC_FMT_F16_:
        mbits = 10; emin = -14; emax = 15; width = 16;
        maxbits = 0x7BFF; infbits = 0x7C00;
        break;
    case TILEC_FMT_BF16_:
        mbits = 7; emin = -126; emax = 127; width = 16;
        maxbits = 0x7F7F; infbits = 0x7F80;
        break;
    case TILEC_FMT_E4M3_:
        mbits = 3; emin = -6; emax = 8; width = 8;
        maxbits = 0x7E; infbits = 0x7F;
        break;
    case TILEC_FMT_E5M2_:
        mbits = 2; emin = -14; emax = 15; width = 8;
        maxbits = 0x7B; infbits = 0x7C;
        break;
    case TILEC_FMT_TF32_: /* float32 layout, 10 mantissa bits kept */
        mbits = 10; emin = -126; emax = 127; width = 32; pad = 13;
        maxbits = 0x7F7FE000; infbits = 0x7F800000;
        break;
    case TILEC_FMT_F32_:
        mbits = 23; emin = -126; emax = 127; width = 32;
        maxbits = 0x7F7FFFFF; infbits = 0x7F800000;
        break;
    default: /* TILEC_FMT_F64_ */
        mbits = 52; emin = -1022; emax = 1023; width = 64;
        maxbits = 0x7FEFFFFFFFFFFFFFull; infbits = 0x7FF0000000000000ull;
        break;
    }
    sign = (uint64_t)(neg != 0) << (width - 1);
    if (cls == TILEC_FP_ZERO_) return sign; /* NaN is the callers' business */
    if (cls == TILEC_FP_INF_) return sign | (sat ? maxbits : infbits);
    mag = tilec_fp_round_(neg, m, e, mode, mbits, emin, emax, maxbits >> pad, &ovf) << pad;
    if (ovf) {
        int to_inf = mode == TILEC_RZ ? 0 : mode == TILEC_RM ? neg : mode == TILEC_RP ? !neg : 1;
        mag = (to_inf && !sat) ? infbits : maxbits;
    }
    return sign | mag;
}

/* A float64 source: NaN keeps sign and top payload bits, as the GPU does. */
TILEC_FP_INLINE uint64_t tilec_fp_from_double_(int fmt, double x, int mode, int sat)
{
    int neg, e;
    uint64_t m;
    int cls = tilec_fp_split_(x, &neg, &m, &e);
    if (cls == TILEC_FP_NAN_) {
        uint64_t pl = tilec_fp_dbits_(x) & 0xFFFFFFFFFFFFFull, s = (uint64_t)neg;
        switch (fmt) {
        case TILEC_FMT_F16_: return s << 15 | 0x7E00u | pl >> 42;
        case TILEC_FMT_BF16_: return s << 15 | 0x7FC0u | pl >> 45;
        case TILEC_FMT_E4M3_: return s << 7 | 0x7Fu;
        case TILEC_FMT_E5M2_: return s << 7 | 0x7Eu | pl >> 50;
        case TILEC_FMT_F32_: return s << 31 | 0x7FC00000u | pl >> 29;
        default: return 0x7FF8000000000000ull; /* not reached: tf32 and f64 take no double NaN */
        }
    }
    return tilec_fp_encode_(fmt, cls, neg, m, e, mode, sat);
}

/* A float32 source: NaN gives the format's canonical NaN. */
TILEC_FP_INLINE uint64_t tilec_fp_from_float_(int fmt, float x, int mode, int sat, uint64_t nan)
{
    return x != x ? nan : tilec_fp_from_double_(fmt, (double)x, mode, sat);
}

TILEC_FP_INLINE uint64_t tilec_fp_from_i64_(int fmt, int64_t v, int mode, int sat)
{
    /* 0 - (uint64_t)v is |v| even for INT64_MIN */
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    return tilec_fp_encode_(fmt, m ? TILEC_FP_FINITE_ : TILEC_FP_ZERO_, v < 0, m, 0, mode, sat);
}

TILEC_FP_INLINE uint64_t tilec_fp_from_u64_(int fmt, uint64_t v, int mode, int sat)
{
    return tilec_fp_encode_(fmt, v ? TILEC_FP_FINITE_ : TILEC_FP_ZERO_, 0, v, 0, mode, sat);
}

/* 2^k as a double, for k in the normal range [-1022, 1023]. */
TILEC_FP_INLINE double tilec_fp_pow2_(int k)
{
    return tilec_fp_bitsd_((uint64_t)(k + 1023) << 52);
}

/* Decodes a narrow IEEE-style pattern: ebits exponent bits, mbits mantissa
 * bits, bias; e4m3fn (fn != 0) has no infinity and only S.1111.111 is NaN.
 * Every value of these formats is a double, and sig * 2^k is exact.  A NaN
 * widens as IEEE 754 and the GPU do it: sign and payload kept, quiet bit
 * set. */
TILEC_FP_INLINE double tilec_fp_decode_(uint32_t bits, int ebits, int mbits, int bias, int fn)
{
    int width = 1 + ebits + mbits;
    uint64_t sign = (bits >> (width - 1)) & 1u;
    uint32_t ef = (bits >> mbits) & ((1u << ebits) - 1u);
    uint32_t mf = bits & ((1u << mbits) - 1u);
    double v;
    if (fn ? (ef == (1u << ebits) - 1u && mf == (1u << mbits) - 1u) : ef == (1u << ebits) - 1u) {
        if (fn || mf)
            return tilec_fp_bitsd_(sign << 63 | 0x7FF8000000000000ull | (uint64_t)mf << (52 - mbits));
        return tilec_fp_bitsd_(sign << 63 | 0x7FF0000000000000ull);
    }
    if (ef == 0) v = (double)mf * tilec_fp_pow2_(1 - bias - mbits);
    else v = (double)(mf | (1u << mbits)) * tilec_fp_pow2_((int)ef - bias - mbits);
    return sign ? -v : v;
}

/* ---- float16 (IEEE binary16) -------------------------------------------- */

TILEC_FP_INLINE uint16_t tilec_f16_from_double(double x, int mode)
{
    return (uint16_t)tilec_fp_from_double_(TILEC_FMT_F16_, x, mode, 0);
}
TILEC_FP_INLINE uint16_t tilec_f16_from_float(float x, int mode)
{
    return (uint16_t)tilec_fp_from_float_(TILEC_FMT_F16_, x, mode, 0, TILEC_F16_NAN);
}
TILEC_FP_INLINE double tilec_f16_to_double(uint16_t h)
{
    return tilec_fp_decode_(h, 5, 10, 15, 0);
}
/* cvt.f32.f16 gives the canonical NaN 0x7FFFFFFF for every NaN. */
TILEC_FP_INLINE float tilec_f16_to_float(uint16_t h)
{
    if ((h & 0x7FFFu) > 0x7C00u) return tilec_fp_bitsf_(0x7FFFFFFFu);
    return (float)tilec_f16_to_double(h); /* exact */
}

/* ---- bfloat16 ----------------------------------------------------------- */

TILEC_FP_INLINE uint16_t tilec_bf16_from_double(double x, int mode)
{
    return (uint16_t)tilec_fp_from_double_(TILEC_FMT_BF16_, x, mode, 0);
}
TILEC_FP_INLINE uint16_t tilec_bf16_from_float(float x, int mode)
{
    return (uint16_t)tilec_fp_from_float_(TILEC_FMT_BF16_, x, mode, 0, TILEC_BF16_NAN);
}
TILEC_FP_INLINE double tilec_bf16_to_double(uint16_t h)
{
    return tilec_fp_decode_(h, 8, 7, 127, 0);
}
/* bfloat16 is the top half of a float32; cvt.f32.bf16 keeps NaN payloads
 * as they are (signalling ones too). */
TILEC_FP_INLINE float tilec_bf16_to_float(uint16_t h)
{
    return tilec_fp_bitsf_((uint32_t)h << 16);
}

/* ---- float8 e4m3fn and e5m2 --------------------------------------------- */

/* saturate != 0 is CUDA's __NV_SATFINITE (the default of the __nv_fp8_e4m3 /
 * __nv_fp8_e5m2 constructors): overflow and infinities clamp to the largest
 * finite value; 0 is __NV_NOSAT.  CUDA itself offers round-to-nearest only;
 * the other modes follow the same rules. */
TILEC_FP_INLINE uint8_t tilec_e4m3_from_double(double x, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_double_(TILEC_FMT_E4M3_, x, mode, saturate);
}
TILEC_FP_INLINE uint8_t tilec_e4m3_from_float(float x, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_float_(TILEC_FMT_E4M3_, x, mode, saturate, TILEC_E4M3_NAN);
}
TILEC_FP_INLINE double tilec_e4m3_to_double(uint8_t v)
{
    return tilec_fp_decode_(v, 4, 3, 7, 1);
}
/* CUDA widens float8 through float16 (cvt.rn.f16x2.e4m3x2, then
 * cvt.f32.f16), so every NaN becomes 0x7FFFFFFF. */
TILEC_FP_INLINE float tilec_e4m3_to_float(uint8_t v)
{
    double d = tilec_e4m3_to_double(v);
    return d != d ? tilec_fp_bitsf_(0x7FFFFFFFu) : (float)d; /* exact */
}
TILEC_FP_INLINE uint8_t tilec_e5m2_from_double(double x, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_double_(TILEC_FMT_E5M2_, x, mode, saturate);
}
TILEC_FP_INLINE uint8_t tilec_e5m2_from_float(float x, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_float_(TILEC_FMT_E5M2_, x, mode, saturate, TILEC_E5M2_NAN);
}
TILEC_FP_INLINE double tilec_e5m2_to_double(uint8_t v)
{
    return tilec_fp_decode_(v, 5, 2, 15, 0);
}
/* CUDA widens float8 through float16 (cvt.rn.f16x2.e5m2x2, then
 * cvt.f32.f16), so every NaN becomes 0x7FFFFFFF. */
TILEC_FP_INLINE float tilec_e5m2_to_float(uint8_t v)
{
    double d = tilec_e5m2_to_double(v);
    return d != d ? tilec_fp_bitsf_(0x7FFFFFFFu) : (float)d; /* exact */
}

/* ---- tf32 and float32 --------------------------------------------------- */

/* tf32 in any mode: 10 mantissa bits kept, float32's exponent range,
 * subnormals rounded (not flushed), infinities kept, a carry past the
 * largest float gives infinity.  A NaN has its low 13 bits cleared, exactly
 * as the GPU does (so a signalling NaN whose payload lies only there
 * becomes an infinity, as on the GPU). */
TILEC_FP_INLINE float tilec_tf32_from_float(float x, int mode)
{
    if (x != x) return tilec_fp_bitsf_(tilec_fp_fbits_(x) & 0xFFFFE000u);
    return tilec_fp_bitsf_((uint32_t)tilec_fp_from_double_(TILEC_FMT_TF32_, (double)x, mode, 0));
}
/* cvt.rna.tf32.f32: nearest, ties away from zero. */
TILEC_FP_INLINE float tilec_tf32_round(float x)
{
    return tilec_tf32_from_float(x, TILEC_RNA);
}
/* float64 -> float32 in mode (cvt.{rn,rz,rm,rp}.f32.f64), by exact integer
 * rounding rather than fesetround, so the result never depends on the
 * caller's floating-point environment. */
TILEC_FP_INLINE float tilec_f32_from_double(double x, int mode)
{
    return tilec_fp_bitsf_((uint32_t)tilec_fp_from_double_(TILEC_FMT_F32_, x, mode, 0));
}
/* float32 -> float32 in any mode is the identity (NaN stays as it is). */
TILEC_FP_INLINE float tilec_f32_from_float(float x, int mode)
{
    (void)mode;
    return x;
}

/* ---- integer -> float: one correct rounding of the exact integer -------
 * (cvt.{rn,rz,rm,rp}.fN.{s,u}64; no detour through double or long double,
 * which would round twice for large int64 values). */

TILEC_FP_INLINE float tilec_f32_from_i64(int64_t v, int mode)
{
    return tilec_fp_bitsf_((uint32_t)tilec_fp_from_i64_(TILEC_FMT_F32_, v, mode, 0));
}
TILEC_FP_INLINE float tilec_f32_from_u64(uint64_t v, int mode)
{
    return tilec_fp_bitsf_((uint32_t)tilec_fp_from_u64_(TILEC_FMT_F32_, v, mode, 0));
}
TILEC_FP_INLINE double tilec_f64_from_i64(int64_t v, int mode)
{
    return tilec_fp_bitsd_(tilec_fp_from_i64_(TILEC_FMT_F64_, v, mode, 0));
}
TILEC_FP_INLINE double tilec_f64_from_u64(uint64_t v, int mode)
{
    return tilec_fp_bitsd_(tilec_fp_from_u64_(TILEC_FMT_F64_, v, mode, 0));
}
TILEC_FP_INLINE uint16_t tilec_f16_from_i64(int64_t v, int mode)
{
    return (uint16_t)tilec_fp_from_i64_(TILEC_FMT_F16_, v, mode, 0);
}
TILEC_FP_INLINE uint16_t tilec_f16_from_u64(uint64_t v, int mode)
{
    return (uint16_t)tilec_fp_from_u64_(TILEC_FMT_F16_, v, mode, 0);
}
TILEC_FP_INLINE uint16_t tilec_bf16_from_i64(int64_t v, int mode)
{
    return (uint16_t)tilec_fp_from_i64_(TILEC_FMT_BF16_, v, mode, 0);
}
TILEC_FP_INLINE uint16_t tilec_bf16_from_u64(uint64_t v, int mode)
{
    return (uint16_t)tilec_fp_from_u64_(TILEC_FMT_BF16_, v, mode, 0);
}
TILEC_FP_INLINE uint8_t tilec_e4m3_from_i64(int64_t v, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_i64_(TILEC_FMT_E4M3_, v, mode, saturate);
}
TILEC_FP_INLINE uint8_t tilec_e5m2_from_i64(int64_t v, int mode, int saturate)
{
    return (uint8_t)tilec_fp_from_i64_(TILEC_FMT_E5M2_, v, mode, saturate);
}

/* ---- float -> integer (cvt.{rni,rzi,rmi,rpi}.{s,u}N.fM) ------------------
 * bits: the destination width (8, 16, 32 or 64; any 1..64 works, other
 * values mean 64).  src_bits: the source type's width (16 or 32 for
 * float16/bfloat16/float32 held in x exactly, 64 for float64), which only
 * decides NaN.  Out-of-range values and infinities saturate to the type's
 * min/max.  NaN gives what the GPU gives (measured on sm_90): 0 from a
 * 16/32-bit float into an integer of at most 32 bits, otherwise the pattern
 * with only the top bit set (INT64_MIN for int64, 2^63 for uint64; from a
 * float64, INT32_MIN for int32, 0x80 for uint8 and so on). */

/* Rounds x (not NaN) to an integer-valued double in mode, without libm. */
TILEC_FP_INLINE double tilec_fp_rint_(double x, int mode)
{
    int64_t t;
    double td, fr, afr;
    int away;
    if (!(x < 4503599627370496.0 && x > -4503599627370496.0)) return x; /* |x| >= 2^52: integral */
    t = (int64_t)x;          /* truncation; fits since |x| < 2^52 */
    td = (double)t;
    fr = x - td;             /* exact, in (-1, 1), sign of x */
    afr = fr < 0 ? -fr : fr;
    switch (mode) {
    case TILEC_RZ: away = 0; break;
    case TILEC_RM: away = fr < 0; break;
    case TILEC_RP: away = fr > 0; break;
    case TILEC_RNA: away = afr >= 0.5; break;
    default: away = afr > 0.5 || (afr == 0.5 && (t & 1)); break;
    }
    return away ? (fr < 0 ? td - 1.0 : td + 1.0) : td;
}

TILEC_FP_INLINE uint64_t tilec_fp_int_nan_(int bits, int src_bits)
{
    return (src_bits <= 32 && bits <= 32) ? 0 : 1ull << (bits - 1);
}

TILEC_FP_INLINE int64_t tilec_cvt_float_to_int(double x, int mode, int bits, int src_bits)
{
    double r, lim;
    uint64_t top;
    if (bits < 1 || bits > 64) bits = 64;
    top = 1ull << (bits - 1);
    if (x != x) /* the top-bit-only pattern is -2^(bits-1) */
        return tilec_fp_int_nan_(bits, src_bits) ? (bits == 64 ? INT64_MIN : -(int64_t)top) : 0;
    r = tilec_fp_rint_(x, mode);
    lim = (double)top; /* 2^(bits-1), exact */
    if (r >= lim) return (int64_t)(top - 1);
    if (r <= -lim) return bits == 64 ? INT64_MIN : -(int64_t)top;
    return (int64_t)r;
}

TILEC_FP_INLINE uint64_t tilec_cvt_float_to_uint(double x, int mode, int bits, int src_bits)
{
    double r;
    if (bits < 1 || bits > 64) bits = 64;
    if (x != x) return tilec_fp_int_nan_(bits, src_bits);
    r = tilec_fp_rint_(x, mode);
    if (r <= 0) return 0;
    if (bits == 64) return r >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)r;
    if (r >= (double)(1ull << bits)) return (1ull << bits) - 1;
    return (uint64_t)r;
}

/* Named forms: tilec_fM_to_{i,u}N(x, mode).  float16/bfloat16 sources use
 * the f32 forms (their values and NaN rule are float32's). */
TILEC_FP_INLINE int8_t tilec_f32_to_i8(float x, int mode) { return (int8_t)tilec_cvt_float_to_int(x, mode, 8, 32); }
TILEC_FP_INLINE int16_t tilec_f32_to_i16(float x, int mode) { return (int16_t)tilec_cvt_float_to_int(x, mode, 16, 32); }
TILEC_FP_INLINE int32_t tilec_f32_to_i32(float x, int mode) { return (int32_t)tilec_cvt_float_to_int(x, mode, 32, 32); }
TILEC_FP_INLINE int64_t tilec_f32_to_i64(float x, int mode) { return tilec_cvt_float_to_int(x, mode, 64, 32); }
TILEC_FP_INLINE uint8_t tilec_f32_to_u8(float x, int mode) { return (uint8_t)tilec_cvt_float_to_uint(x, mode, 8, 32); }
TILEC_FP_INLINE uint16_t tilec_f32_to_u16(float x, int mode) { return (uint16_t)tilec_cvt_float_to_uint(x, mode, 16, 32); }
TILEC_FP_INLINE uint32_t tilec_f32_to_u32(float x, int mode) { return (uint32_t)tilec_cvt_float_to_uint(x, mode, 32, 32); }
TILEC_FP_INLINE uint64_t tilec_f32_to_u64(float x, int mode) { return tilec_cvt_float_to_uint(x, mode, 64, 32); }
TILEC_FP_INLINE int8_t tilec_f64_to_i8(double x, int mode) { return (int8_t)tilec_cvt_float_to_int(x, mode, 8, 64); }
TILEC_FP_INLINE int16_t tilec_f64_to_i16(double x, int mode) { return (int16_t)tilec_cvt_float_to_int(x, mode, 16, 64); }
TILEC_FP_INLINE int32_t tilec_f64_to_i32(double x, int mode) { return (int32_t)tilec_cvt_float_to_int(x, mode, 32, 64); }
TILEC_FP_INLINE int64_t tilec_f64_to_i64(double x, int mode) { return tilec_cvt_float_to_int(x, mode, 64, 64); }
TILEC_FP_INLINE uint8_t tilec_f64_to_u8(double x, int mode) { return (uint8_t)tilec_cvt_float_to_uint(x, mode, 8, 64); }
TILEC_FP_INLINE uint16_t tilec_f64_to_u16(double x, int mode) { return (uint16_t)tilec_cvt_float_to_uint(x, mode, 16, 64); }
TILEC_FP_INLINE uint32_t tilec_f64_to_u32(double x, int mode) { return (uint32_t)tilec_cvt_float_to_uint(x, mode, 32, 64); }
TILEC_FP_INLINE uint64_t tilec_f64_to_u64(double x, int mode) { return tilec_cvt_float_to_uint(x, mode, 64, 64); }

#ifdef __cplusplus
}
#endif
#endif /* TILEC_FP_H */
