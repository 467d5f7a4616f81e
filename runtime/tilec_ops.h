/* tilec_ops.h: the element operations that generated code calls, shared by
 * the CUDA target (nvcc, host and device) and the host target (C17).
 *
 * Both targets store every dtype the same way (float16/bfloat16 as uint16_t
 * bit patterns, float8 as uint8_t, tf32 as a float with 13 zero low bits), and
 * compute narrow floats in float, rounding after every operation.  For + - * /
 * and sqrt that gives exactly the correctly rounded narrow result (float has
 * more than twice the precision plus two bits), so host and GPU agree bit for
 * bit on them.  Integer arithmetic is done in unsigned types and converted
 * back, so overflow wraps instead of being undefined; division and remainder
 * by zero give 0 and shifts by out-of-range counts are defined (see
 * docs/language.md, "Arithmetic").  On the device the common conversions use
 * CUDA's intrinsics, which round the same way as tilec_fp.h. */
#ifndef TILEC_OPS_H
#define TILEC_OPS_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h> /* tile_printf */
#include <string.h> /* memcpy */

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#define TILEC_OP static __host__ __device__ __forceinline__
#else
#define TILEC_OP static inline
#endif

#include "tilec_fp.h"
#include "tilec_rt.h"

/* Rounding-mode values that generated code passes (tilec_fp.h's). */
#define TILEC_MODE_RN TILEC_RN
#define TILEC_MODE_RZ TILEC_RZ
#define TILEC_MODE_RM TILEC_RM
#define TILEC_MODE_RP TILEC_RP

/* ---- narrow floats: storage <-> float ------------------------------------ */

TILEC_OP float tilec_ld_f16(uint16_t b)
{
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(b));
#else
    return tilec_f16_to_float(b);
#endif
}

TILEC_OP uint16_t tilec_st_f16(float x)
{
#if defined(__CUDA_ARCH__)
    return __half_as_ushort(__float2half_rn(x));
#else
    return tilec_f16_from_float(x, TILEC_RN);
#endif
}

/* (On the GPU too the widening is the shift the host does: plain C that
 * the compiler can combine and reuse, where __bfloat162float's inline
 * cvt.f32.bf16 is opaque to it -- a bias row read by every element of an
 * epilogue was converted once per element -- and NaN payloads are kept
 * bit for bit, as on the host.) */
TILEC_OP float tilec_ld_bf16(uint16_t b)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float((unsigned)b << 16);
#else
    return tilec_bf16_to_float(b);
#endif
}

TILEC_OP uint16_t tilec_st_bf16(float x)
{
#if defined(__CUDA_ARCH__)
    return __bfloat16_as_ushort(__float2bfloat16_rn(x));
#else
    return tilec_bf16_from_float(x, TILEC_RN);
#endif
}

/* float8 values are computed as floats that are already values of the
 * format (casts round them), so storing them back is exact and must not
 * saturate: an e5m2 infinity that a non-saturating cast produced stays one. */
TILEC_OP float tilec_ld_e4m3(uint8_t b) { return tilec_e4m3_to_float(b); }
TILEC_OP uint8_t tilec_st_e4m3(float x) { return tilec_e4m3_from_float(x, TILEC_RN, 0); }
TILEC_OP float tilec_ld_e5m2(uint8_t b) { return tilec_e5m2_to_float(b); }
TILEC_OP uint8_t tilec_st_e5m2(float x) { return tilec_e5m2_from_float(x, TILEC_RN, 0); }
TILEC_OP float tilec_st_tf32(float x)
{
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
#else
    return tilec_tf32_round(x);
#endif
}

/* Round a float result to the precision of a narrow type (value stays float). */
TILEC_OP float tilec_rnd_f16(float x) { return tilec_ld_f16(tilec_st_f16(x)); }
TILEC_OP float tilec_rnd_bf16(float x) { return tilec_ld_bf16(tilec_st_bf16(x)); }

/* ---- integers: defined division, remainder and shifts ------------------- */

TILEC_OP int64_t tilec_sdiv(int64_t a, int64_t b)
{
    if (b == 0) return 0;
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    return a / b;
}
TILEC_OP uint64_t tilec_udiv(uint64_t a, uint64_t b) { return b ? a / b : 0; }
/* A view's coordinate split by an extent that is known at run time only
 * (codegen/view.c): a / b and a % b as C has them, in 32 bits where both
 * fit (always, in practice), where a 64-bit division is a long subroutine
 * on the GPU that the element and box loops of a view would run per step
 * and per element. */
/* The rare 64-bit case as a plain shift-and-subtract loop, no call: a
 * call (the 64-bit division subroutine, or an out-of-line function) made
 * ptxas save registers around it in the pipelined view kernels, which it
 * counts as spills.  C's truncating quotient and remainder; 0 for b = 0. */
TILEC_OP void tilec_vdivmod64_(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
    const uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t uq = 0, ur = 0;
    if (ub) {
#if defined(__CUDACC__)
#pragma unroll 1
#endif
        for (int i = 63; i >= 0; --i) {
            ur = (ur << 1) | ((ua >> i) & 1u);
            if (ur >= ub) ur -= ub, uq |= (uint64_t)1 << i;
        }
    }
    *q = (a < 0) != (b < 0) ? (int64_t)(0 - uq) : (int64_t)uq;
    *r = a < 0 ? (int64_t)(0 - ur) : (int64_t)ur;
}
TILEC_OP int64_t tilec_vdiv(int64_t a, int64_t b)
{
    if ((uint64_t)a <= 0xffffffffu && b > 0 && b <= (int64_t)0xffffffffu) return (int64_t)((uint32_t)a / (uint32_t)b);
    int64_t q, r;
    tilec_vdivmod64_(a, b, &q, &r);
    return q;
}
TILEC_OP int64_t tilec_vmod(int64_t a, int64_t b)
{
    if ((uint64_t)a <= 0xffffffffu && b > 0 && b <= (int64_t)0xffffffffu) return (int64_t)((uint32_t)a % (uint32_t)b);
    int64_t q, r;
    tilec_vdivmod64_(a, b, &q, &r);
    return r;
}
TILEC_OP int64_t tilec_srem(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
TILEC_OP uint64_t tilec_urem(uint64_t a, uint64_t b) { return b ? a % b : 0; }
TILEC_OP uint64_t tilec_shl(uint64_t a, int64_t n, int bits)
{
    return (n < 0 || n >= bits) ? 0 : a << n;
}
TILEC_OP uint64_t tilec_shr(uint64_t a, int64_t n, int bits)
{
    return (n < 0 || n >= bits) ? 0 : a >> n;
}
TILEC_OP int64_t tilec_sar(int64_t a, int64_t n, int bits)
{
    if (n < 0 || n >= bits) return a < 0 ? -1 : 0;
    return a < 0 ? (int64_t)~(~(uint64_t)a >> n) : (int64_t)((uint64_t)a >> n);
}

/* ---- math on float and double ------------------------------------------ */

TILEC_OP float tilec_rsqrtf(float x)
{
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
}
TILEC_OP double tilec_rsqrt(double x)
{
#if defined(__CUDA_ARCH__)
    return rsqrt(x);
#else
    return 1.0 / sqrt(x);
#endif
}
TILEC_OP float tilec_fast_expf(float x)
{
#if defined(__CUDA_ARCH__)
    return __expf(x);
#else
    return expf(x);
#endif
}
TILEC_OP float tilec_fast_exp2f(float x)
{
#if defined(__CUDA_ARCH__)
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return exp2f(x);
#endif
}
TILEC_OP float tilec_fast_logf(float x)
{
#if defined(__CUDA_ARCH__)
    return __logf(x);
#else
    return logf(x);
#endif
}
TILEC_OP float tilec_fast_sinf(float x)
{
#if defined(__CUDA_ARCH__)
    return __sinf(x);
#else
    return sinf(x);
#endif
}
TILEC_OP float tilec_fast_cosf(float x)
{
#if defined(__CUDA_ARCH__)
    return __cosf(x);
#else
    return cosf(x);
#endif
}
/* tanh.approx.f32 (sm_75 on): one MUFU instruction instead of the ~20 of
 * tanhf, a relative error of at most 2^-10.987 (PTX ISA) -- within a
 * bfloat16 or float16 result's rounding. */
TILEC_OP float tilec_fast_tanhf(float x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    float y;
    asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return tanhf(x);
#endif
}

/* 1 / (1 + 2^y), for expr.c's forms of 1 + tanh(x) = 2 / (1 + 2^y) with
 * y = -2x / ln 2 (and of GELU's 0.5v(1 + tanh(u)) = v / (1 + 2^y)).  On the
 * GPU ex2.approx and rcp.approx, the two MUFU operations of tanhf's
 * large-argument branch, without its polynomial branch (none is needed:
 * near tanh(x) = 0 the result is near 1/2, no cancellation) or the add; a
 * relative error of a few units in the last place plus |y| / 2 for the
 * rounding of y, where rounding tanh(x) first loses every digit of 1 +
 * tanh(x) below x = -9.  NaN gives NaN, y = +inf 0, y = -inf 1. */
TILEC_OP float tilec_inv1p_exp2f(float y)
{
#if defined(__CUDA_ARCH__)
    float e, r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(y));
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(1.0f + e));
    return r;
#else
    return 1.0f / (1.0f + exp2f(y));
#endif
}

/* 1 / d for finite d >= 1 (or NaN) on the FMA pipe, without the MUFU
 * unit: an estimate from the bits (the exponent negated, the mantissa
 * roughly mirrored: at most 5.1% off), then three Newton steps, each
 * squaring the relative error (2.6e-3, 6.6e-6, below half an ulp): within
 * 0.501 ulp of 1/d up to d = 2^125 and 1 ulp up to 2^126
 * (tests/unit/test_ops.c checks every binade).  Above 2^126 the estimate
 * is subnormal, or 0 where the subtraction would go negative (the max),
 * and so is the result: at most 2^-126, 0 where subnormals are flushed,
 * as rcp.approx.ftz gives.  NaN stays NaN (its estimate is 0, its first
 * step NaN).  Nine instructions where rcp.approx is one, but on the
 * 128-lane pipes instead of the 16-lane one. */
TILEC_OP float tilec_rcp_fmaf(float d)
{
    uint32_t u;
    float r, t;
#if defined(__CUDA_ARCH__)
    u = 0x7EF311C7u - (uint32_t)__float_as_int(d);
    r = __int_as_float(max((int)u, 0));
#else
    memcpy(&u, &d, 4);
    u = 0x7EF311C7u - u;
    if (u > 0x7FFFFFFFu) u = 0;
    memcpy(&r, &u, 4);
#endif
    t = fmaf(-d, r, 1.0f), r = fmaf(r, t, r);
    t = fmaf(-d, r, 1.0f), r = fmaf(r, t, r);
    t = fmaf(-d, r, 1.0f), r = fmaf(r, t, r);
    return r;
}

/* tilec_inv1p_exp2f for element i of a thread's fragment (a constant once
 * the element loop is unrolled).  On sm_90 and later, two elements of
 * every five take the reciprocal on the FMA pipe (tilec_rcp_fmaf, with y
 * clamped just below 128 so that 1 + 2^y stays finite and +inf still gives
 * 0; NaN stays NaN): a GELU epilogue's two MUFU operations an element
 * (ex2, rcp) are what bound it, 16 cycles of the unit's pipe a warp
 * against about 10 issue cycles of everything else, and moving 2/5 of the
 * reciprocals balances the two (on an H200: 1/4, 2/5, 1/2 and 3/5
 * measured, 2/5 fastest, 2.6% off the whole matmul + bias + GELU layer;
 * docs/performance.md).  Results agree with the MUFU path within an ulp
 * down to 2^-126, below which either path may give 0 or a subnormal.
 * Earlier GPUs (sm_80 has half as many FP32 lanes an SM) and the host:
 * tilec_inv1p_exp2f. */
TILEC_OP float tilec_inv1p_exp2f_at(float y, int i)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (i % 5 < 2) {
        float c, e;
        asm("min.NaN.f32 %0, %1, 0f42FFFF00;" : "=f"(c) : "f"(y)); /* 127.998 */
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(c));
        return tilec_rcp_fmaf(1.0f + e);
    }
#endif
    (void)i;
    return tilec_inv1p_exp2f(y);
}

/* ---- reductions: max/min that propagate NaN, like NumPy and PyTorch ----- */

TILEC_OP float tilec_maxf(float a, float b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
TILEC_OP float tilec_minf(float a, float b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }
TILEC_OP double tilec_maxd(double a, double b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
TILEC_OP double tilec_mind(double a, double b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }

/* ---- atomics on global arrays -------------------------------------------- */
/* tilec_atomic_<op>_<type>(p, v, order, scope) returns the old value (op:
 * add, sub, max, min, xchg, cas, and the integers' and, or, xor).  order
 * is 1..5 (relaxed, acquire, release, acq_rel, seq_cst), scope 1..3 (block,
 * device, system), both compile-time constants in generated code.  On the
 * device they are cuda::atomic_ref operations; on the host the GCC __atomic
 * builtins (the scope does not matter there).  max and min of floats, which
 * have no native instruction, are compare-and-swap loops. */
#if defined(__CUDACC__) && defined(__cplusplus)
#include <cuda/atomic>
template <typename T, cuda::thread_scope S> struct tilec_aref_ {
    static __device__ __forceinline__ cuda::std::memory_order mo(int o)
    {
        return o == 2 ? cuda::std::memory_order_acquire : o == 3 ? cuda::std::memory_order_release
             : o == 4 ? cuda::std::memory_order_acq_rel : o == 5 ? cuda::std::memory_order_seq_cst
             : cuda::std::memory_order_relaxed;
    }
    static __device__ __forceinline__ T add(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).fetch_add(v, mo(o)); }
    static __device__ __forceinline__ T sub(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).fetch_sub(v, mo(o)); }
    static __device__ __forceinline__ T band(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).fetch_and(v, mo(o)); }
    static __device__ __forceinline__ T bor(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).fetch_or(v, mo(o)); }
    static __device__ __forceinline__ T bxor(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).fetch_xor(v, mo(o)); }
    static __device__ __forceinline__ T xchg(T *p, T v, int o) { return cuda::atomic_ref<T, S>(*p).exchange(v, mo(o)); }
    static __device__ __forceinline__ T cas(T *p, T e, T d, int o)
    {
        cuda::atomic_ref<T, S>(*p).compare_exchange_strong(e, d, mo(o), cuda::std::memory_order_relaxed);
        return e;
    }
    static __device__ __forceinline__ T maxmin(T *p, T v, int o, bool mx)
    {
        cuda::atomic_ref<T, S> r(*p);
        T old = r.load(cuda::std::memory_order_relaxed);
        while ((mx ? v > old : v < old) && !r.compare_exchange_weak(old, v, mo(o), cuda::std::memory_order_relaxed)) {
        }
        return old;
    }
};
#define TILEC_SCOPED_(T, sc, call)                                                  \
    ((sc) == 1 ? tilec_aref_<T, cuda::thread_scope_block>::call                     \
     : (sc) == 3 ? tilec_aref_<T, cuda::thread_scope_system>::call                  \
                 : tilec_aref_<T, cuda::thread_scope_device>::call)
#define TILEC_DEF_ATOMICS_(T, S)                                                                      \
    static __device__ __forceinline__ T tilec_atomic_add_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, add(p, v, o)); } \
    static __device__ __forceinline__ T tilec_atomic_sub_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, sub(p, v, o)); } \
    static __device__ __forceinline__ T tilec_atomic_xchg_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, xchg(p, v, o)); } \
    static __device__ __forceinline__ T tilec_atomic_cas_##S(T *p, T e, T d, int o, int sc) { return TILEC_SCOPED_(T, sc, cas(p, e, d, o)); } \
    static __device__ __forceinline__ T tilec_atomic_max_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, maxmin(p, v, o, true)); } \
    static __device__ __forceinline__ T tilec_atomic_min_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, maxmin(p, v, o, false)); }
#define TILEC_DEF_BIT_ATOMICS_(T, S)                                                                  \
    static __device__ __forceinline__ T tilec_atomic_and_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, band(p, v, o)); } \
    static __device__ __forceinline__ T tilec_atomic_or_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, bor(p, v, o)); } \
    static __device__ __forceinline__ T tilec_atomic_xor_##S(T *p, T v, int o, int sc) { return TILEC_SCOPED_(T, sc, bxor(p, v, o)); }
#else
/* Addition that wraps for integers (no signed-overflow undefined behaviour). */
static inline int32_t tilec_wrap_add_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline uint32_t tilec_wrap_add_u32(uint32_t a, uint32_t b) { return a + b; }
static inline int64_t tilec_wrap_add_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline uint64_t tilec_wrap_add_u64(uint64_t a, uint64_t b) { return a + b; }
static inline float tilec_wrap_add_f32(float a, float b) { return a + b; }
static inline double tilec_wrap_add_f64(double a, double b) { return a + b; }
static inline int32_t tilec_wrap_sub_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline uint32_t tilec_wrap_sub_u32(uint32_t a, uint32_t b) { return a - b; }
static inline int64_t tilec_wrap_sub_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline uint64_t tilec_wrap_sub_u64(uint64_t a, uint64_t b) { return a - b; }
static inline float tilec_wrap_sub_f32(float a, float b) { return a - b; }
static inline double tilec_wrap_sub_f64(double a, double b) { return a - b; }
static inline int tilec_gcc_mo_(int o)
{
    return o == 2 ? __ATOMIC_ACQUIRE : o == 3 ? __ATOMIC_RELEASE : o == 4 ? __ATOMIC_ACQ_REL
         : o == 5 ? __ATOMIC_SEQ_CST : __ATOMIC_RELAXED;
}
/* add and sub as compare-and-swap loops over the wrapping operation OP
 * (tilec_wrap_<OP>_<S>: no signed-overflow undefined behaviour, and the
 * same loop for floats) */
#define TILEC_DEF_RMW_ATOMIC_(T, S, OP)                                                              \
    static inline T tilec_atomic_##OP##_##S(T *p, T v, int o, int sc)                               \
    {                                                                                                \
        T old;                                                                                       \
        __atomic_load(p, &old, __ATOMIC_RELAXED);                                                    \
        for (;;) {                                                                                   \
            T nv = tilec_wrap_##OP##_##S(old, v);                                                    \
            if (__atomic_compare_exchange(p, &old, &nv, 1, tilec_gcc_mo_(o), __ATOMIC_RELAXED)) break; \
        }                                                                                            \
        (void)sc;                                                                                    \
        return old;                                                                                  \
    }
#define TILEC_DEF_ATOMICS_(T, S)                                                                     \
    static inline T tilec_atomic_cas_##S(T *p, T e, T d, int o, int sc)                             \
    {                                                                                                \
        (void)sc;                                                                                    \
        __atomic_compare_exchange(p, &e, &d, 0, tilec_gcc_mo_(o), __ATOMIC_RELAXED);                 \
        return e;                                                                                    \
    }                                                                                                \
    TILEC_DEF_RMW_ATOMIC_(T, S, add)                                                                 \
    TILEC_DEF_RMW_ATOMIC_(T, S, sub)                                                                 \
    static inline T tilec_atomic_xchg_##S(T *p, T v, int o, int sc)                                 \
    {                                                                                                \
        T old;                                                                                       \
        (void)sc;                                                                                    \
        __atomic_exchange(p, &v, &old, tilec_gcc_mo_(o));                                            \
        return old;                                                                                  \
    }                                                                                                \
    static inline T tilec_atomic_maxmin_##S(T *p, T v, int o, bool mx)                              \
    {                                                                                                \
        T old;                                                                                       \
        __atomic_load(p, &old, __ATOMIC_RELAXED);                                                    \
        while ((mx ? v > old : v < old) &&                                                           \
               !__atomic_compare_exchange(p, &old, &v, 1, tilec_gcc_mo_(o), __ATOMIC_RELAXED)) {     \
        }                                                                                            \
        return old;                                                                                  \
    }                                                                                                \
    static inline T tilec_atomic_max_##S(T *p, T v, int o, int sc) { (void)sc; return tilec_atomic_maxmin_##S(p, v, o, true); } \
    static inline T tilec_atomic_min_##S(T *p, T v, int o, int sc) { (void)sc; return tilec_atomic_maxmin_##S(p, v, o, false); }
#define TILEC_DEF_BIT_ATOMICS_(T, S)                                                                                       \
    static inline T tilec_atomic_and_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_and(p, v, tilec_gcc_mo_(o)); } \
    static inline T tilec_atomic_or_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_or(p, v, tilec_gcc_mo_(o)); }   \
    static inline T tilec_atomic_xor_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_xor(p, v, tilec_gcc_mo_(o)); }
#endif
TILEC_DEF_ATOMICS_(int32_t, i32)
TILEC_DEF_ATOMICS_(uint32_t, u32)
TILEC_DEF_ATOMICS_(int64_t, i64)
TILEC_DEF_ATOMICS_(uint64_t, u64)
TILEC_DEF_ATOMICS_(float, f32)
TILEC_DEF_ATOMICS_(double, f64)
TILEC_DEF_BIT_ATOMICS_(int32_t, i32)
TILEC_DEF_BIT_ATOMICS_(uint32_t, u32)
TILEC_DEF_BIT_ATOMICS_(int64_t, i64)
TILEC_DEF_BIT_ATOMICS_(uint64_t, u64)

/* ---- launcher support ---------------------------------------------------- */

/* Whether array a allows the vectorised path: its rows are contiguous (last
 * stride 1, or a single element per row), and its data pointer and every
 * other stride are aligned to `bytes`.  A zero-size array never blocks it
 * (nothing is accessed). */
static inline int tilec_array_vector_ok(const tilec_array *a, int bytes)
{
    int esize = tilec_dtype_size(a->dtype);
    if (esize <= 0) return 0;
    if (tilec_array_numel(a) == 0) return 1;
    if ((uintptr_t)a->data % (uintptr_t)bytes) return 0;
    if (a->ndim == 0) return 1;
    if (a->strides[a->ndim - 1] != 1 && a->shape[a->ndim - 1] != 1) return 0;
    for (int d = 0; d < a->ndim - 1; d++)
        if (a->shape[d] > 1 && (a->strides[d] * esize) % bytes) return 0;
    return 1;
}
/* ---- CUDA only: vector memory access ------------------------------------ */
#if defined(__CUDACC__) && defined(__cplusplus)
#include <mma.h> /* tensor cores through WMMA (tile_mma) */
template <int BYTES> struct tilec_vec_word;
template <> struct tilec_vec_word<16> { typedef uint4 type; };
template <> struct tilec_vec_word<8> { typedef uint2 type; };
template <> struct tilec_vec_word<4> { typedef unsigned int type; };
template <> struct tilec_vec_word<2> { typedef unsigned short type; };
template <> struct tilec_vec_word<1> { typedef unsigned char type; };

/* Copies V consecutive elements with the widest aligned accesses (16 bytes
 * at most); the launcher has checked the alignment that makes this legal. */
template <int V, typename T> __device__ __forceinline__ void tilec_vload(T *dst, const T *src)
{
    constexpr int B = V * (int)sizeof(T);
    constexpr int C = B >= 16 ? 16 : B;
    typedef typename tilec_vec_word<C>::type W;
    union U { W w; T t[C / sizeof(T)]; };
#pragma unroll
    for (int k = 0; k < B / C; ++k) {
        U u;
        u.w = reinterpret_cast<const W *>(src)[k];
#pragma unroll
        for (int j = 0; j < C / (int)sizeof(T); ++j) dst[k * (C / (int)sizeof(T)) + j] = u.t[j];
    }
}

template <int V, typename T> __device__ __forceinline__ void tilec_vstore(T *dst, const T *src)
{
    constexpr int B = V * (int)sizeof(T);
    constexpr int C = B >= 16 ? 16 : B;
    typedef typename tilec_vec_word<C>::type W;
    union U { W w; T t[C / sizeof(T)]; };
#pragma unroll
    for (int k = 0; k < B / C; ++k) {
        U u;
#pragma unroll
        for (int j = 0; j < C / (int)sizeof(T); ++j) u.t[j] = src[k * (C / (int)sizeof(T)) + j];
        reinterpret_cast<W *>(dst)[k] = u.w;
    }
}

/* A register tile of 16-bit elements (float16, bfloat16) packed two to a
 * 32-bit word.  ptxas gives every 16-bit variable of its own a register,
 * so a uint16_t array of 16 elements held 16 registers, not 8, and in a
 * memory-bound kernel the registers are what limits how many blocks (and so
 * how many bytes in flight) an SM has.  Through the union, generated code
 * indexes elements as it indexes an array, vector copies move whole words,
 * and the compiler keeps the pairs together (layer norm's kernel: 48
 * registers instead of 64; a proxy that shifted and masked words did as
 * well there but made ptxas spill in the conv1d example). */
template <int N> struct tilec_p16 {
    union {
        uint32_t w[(N + 1) / 2];
        uint16_t h[(N + 1) / 2 * 2];
    };
    __device__ __forceinline__ uint16_t &operator[](int e) { return h[e]; }
    __device__ __forceinline__ uint16_t operator[](int e) const { return h[e]; }
};

/* The V elements of a register tile from element off on (off a multiple of
 * V): plain arrays, and packed tiles, whose words take a vector access as
 * they are. */
template <int V, typename T> __device__ __forceinline__ void tilec_vload(T *dst, int off, const T *src)
{
    tilec_vload<V>(dst + off, src);
}

template <int V, typename T> __device__ __forceinline__ void tilec_vstore(T *dst, const T *src, int off)
{
    tilec_vstore<V>(dst, src + off);
}

/* A packed tile's runs are whole words (V > 1 is even, off a multiple of
 * V): the same vector copy, of V / 2 words. */
template <int V, int N> __device__ __forceinline__ void tilec_vload(tilec_p16<N> &dst, int off, const uint16_t *src)
{
    if constexpr (V == 1) dst[off] = *src;
    else tilec_vload<V / 2>(dst.w + off / 2, reinterpret_cast<const uint32_t *>(src));
}

template <int V, int N> __device__ __forceinline__ void tilec_vstore(uint16_t *dst, const tilec_p16<N> &src, int off)
{
    if constexpr (V == 1) *dst = src[off];
    else tilec_vstore<V / 2>(reinterpret_cast<uint32_t *>(dst), src.w + off / 2);
}

/* ---- CUDA only: tensor-core fragments for 16-bit operands ----------------
 * tile_mma on float16 and bfloat16 (and float8, staged as float16) works on
 * 16x16 blocks with mma.sync m16n8k16 (sm_80 and later): operands come from
 * shared memory through ldmatrix, and the float32 accumulator of a block is
 * two m16n8 fragments.  Lane l = 4g + t of a warp holds, of fragment h
 * (columns 8h .. 8h+7), rows g and g + 8, columns 8h + 2t and 8h + 2t + 1. */
struct tilec_frag_acc { float x[8]; };
struct tilec_frag_a { unsigned x[4]; }; /* 16x16 A block, row-major */
struct tilec_frag_b { unsigned x[4]; }; /* 16x16 B block: k 0-7, 8-15 of columns 0-7, then of 8-15 */

__device__ __forceinline__ void tilec_acc_fill(tilec_frag_acc &c, float v)
{
#pragma unroll
    for (int i = 0; i < 8; ++i) c.x[i] = v;
}

/* The 16x16 block at p (row stride ld) into / out of c. */
__device__ __forceinline__ void tilec_acc_load(tilec_frag_acc &c, const float *p, int ld)
{
    const int l = (int)(threadIdx.x & 31), g = l >> 2, t = l & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const float2 u = *reinterpret_cast<const float2 *>(p + g * ld + 8 * h + 2 * t);
        const float2 v = *reinterpret_cast<const float2 *>(p + (g + 8) * ld + 8 * h + 2 * t);
        c.x[4 * h] = u.x, c.x[4 * h + 1] = u.y, c.x[4 * h + 2] = v.x, c.x[4 * h + 3] = v.y;
    }
}

__device__ __forceinline__ void tilec_acc_store(float *p, const tilec_frag_acc &c, int ld)
{
    const int l = (int)(threadIdx.x & 31), g = l >> 2, t = l & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        *reinterpret_cast<float2 *>(p + g * ld + 8 * h + 2 * t) = make_float2(c.x[4 * h], c.x[4 * h + 1]);
        *reinterpret_cast<float2 *>(p + (g + 8) * ld + 8 * h + 2 * t) = make_float2(c.x[4 * h + 2], c.x[4 * h + 3]);
    }
}

/* Four 8x8 matrices of 16-bit elements into x: lane l gives the shared
 * address s of its row (ldmatrix .x4; trans for B, which is stored
 * k-major).  Not volatile, so the compiler may schedule them among the
 * products; the memory clobber keeps them after the barrier that publishes
 * the data. */
__device__ __forceinline__ void tilec_ldsm4_(unsigned (&x)[4], unsigned s)
{
    asm("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
        : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]) : "r"(s) : "memory");
}

__device__ __forceinline__ void tilec_ldsm4t_(unsigned (&x)[4], unsigned s)
{
    asm("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
        : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]) : "r"(s) : "memory");
}

/* The 16x16 block at p (row stride ld, rows 16-byte aligned): lane l
 * addresses row l % 16 of column block l / 16. */
__device__ __forceinline__ unsigned tilec_ldsm_row_(const void *p, int ld)
{
    const int l = (int)(threadIdx.x & 31);
    return (unsigned)__cvta_generic_to_shared((const uint16_t *)p + (l & 15) * ld + (l >> 4) * 8);
}

__device__ __forceinline__ void tilec_ldsm_a(tilec_frag_a &a, const void *p, int ld)
{
    tilec_ldsm4_(a.x, tilec_ldsm_row_(p, ld));
}

__device__ __forceinline__ void tilec_ldsm_b(tilec_frag_b &b, const void *p, int ld)
{
    tilec_ldsm4t_(b.x, tilec_ldsm_row_(p, ld));
}

/* The swizzled layout of pipelined operand buffers (codegen/pipeline.c,
 * pipe_stage_elems): element (r, c) of a row-major tile of C 16-bit columns, no
 * padding, with 16-byte run q = c / 8 of row r stored at run q ^ s(r).
 * s(r) = r % 8 when a row has 8k runs, and (r / (8 / P)) % P when it has
 * P = 1, 2 or 4 runs (8 / P rows share a 128-byte line).  Eight rows read
 * at the same column (one ldmatrix phase) then fall into eight different
 * 16-byte bank groups, and the eight runs of one 128-byte line (what eight
 * consecutive threads copy) stay in that line: neither collides
 * (tests/unit/test_swz.cu checks both, and that the layout is a bijection). */
template <int C> __host__ __device__ __forceinline__ constexpr int tilec_swz(int r, int c)
{
    constexpr int P = C / 8;
    static_assert(C % 8 == 0 && (P == 1 || P == 2 || P == 4 || P % 8 == 0), "tilec_swz: unsupported row length");
    const int s = P >= 8 ? (r & 7) : ((r / (8 / P)) & (P - 1));
    return r * C + ((((c >> 3) ^ s)) << 3) + (c & 7);
}

/* The layout a pipelined K loop's products read on wgmma (codegen/
 * pipeline.c, sm_90a builds) for its B operand, R rows (K) of C columns
 * (N, N contiguous): wgmma's MN-major canonical layout with the 128-byte
 * swizzle, the columns in chunks of 64, each chunk R rows of 128 bytes
 * (tilec_swz<64>'s: run q of row r at run q ^ (r % 8)), chunk j at
 * j * R * 64 elements.  (The A operand, rows of K contiguous elements of
 * 32, 64 or 128 bytes, is tilec_swz<K>'s layout already: wgmma's K-major
 * layout with the 32-, 64- or 128-byte swizzle.)  Runs of 8 stay 16
 * contiguous bytes, so the gathers store them whole. */
template <int R> __host__ __device__ __forceinline__ constexpr int tilec_swz_mn(int r, int c)
{
    return (c >> 6) * (R * 64) + tilec_swz<64>(r, c & 63);
}

/* Stepping through a swizzled buffer without recomputing the swizzle.  Let
 * t be the byte address, in a buffer in tilec_swz<C>'s layout whose start is
 * 128-byte aligned, of element (r0 + a, c0 + b) for a thread's fixed a and
 * b (a < 16, b < 16, b a multiple of 8; r0 a multiple of 8; c0 / 8 and c0
 * / 8 + ci / 8 + b / 8 a sum of disjoint bits, as when c0 is a multiple of a
 * power of two that ci stays below).  Then element (r0 + ri + a, c0 + ci +
 * b), for ri a multiple of 8 and ci of 16, is at the address returned: the
 * run index of (c0 + ci + b) XOR s(row) splits into the bits the swizzle
 * touches (M: three bits, or log2 P) and the rest, the first a XOR into
 * t's run bits, the second an addition with the row step.  With ri and ci
 * constants (unrolled loops) that is one logic instruction, and the rest
 * an ldmatrix immediate: in the tile_mma K loop the swizzle arithmetic per
 * ldmatrix was most of the loop's integer instructions (ncu, H100).
 * tests/unit/test_swz.cu checks the identity. */
template <int C> __host__ __device__ __forceinline__ constexpr unsigned tilec_swz_step(unsigned t, int ri, int ci)
{
    constexpr int P = C / 8, M = P >= 8 ? 7 : P - 1;
    return (t ^ (unsigned)(((ci >> 3) & M) << 4)) + (unsigned)(2 * ri * C + (((ci >> 3) & ~M) << 4));
}

/* Byte offset of this lane's ldmatrix row for the 16x16 block at (r0, c0)
 * in tilec_swz<C>'s layout (the t of tilec_swz_step, less the buffer). */
template <int C> __device__ __forceinline__ unsigned tilec_ldsm_off_swz(int r0, int c0)
{
    const int l = (int)(threadIdx.x & 31);
    return (unsigned)(2 * tilec_swz<C>(r0 + (l & 15), c0 + (l >> 4) * 8));
}

/* The same lanes' rows in a buffer in tilec_swz<C>'s layout, for the
 * 16x16 block at row r0, column c0 (multiples of 8). */
template <int C> __device__ __forceinline__ unsigned tilec_ldsm_row_swz_(const void *base, int r0, int c0)
{
    return (unsigned)__cvta_generic_to_shared(base) + tilec_ldsm_off_swz<C>(r0, c0);
}

template <int C> __device__ __forceinline__ void tilec_ldsm_a_swz(tilec_frag_a &a, const void *base, int r0, int c0)
{
    tilec_ldsm4_(a.x, tilec_ldsm_row_swz_<C>(base, r0, c0));
}

template <int C> __device__ __forceinline__ void tilec_ldsm_b_swz(tilec_frag_b &b, const void *base, int r0, int c0)
{
    tilec_ldsm4t_(b.x, tilec_ldsm_row_swz_<C>(base, r0, c0));
}

/* Fragments of the block (ri, ci) blocks away from the one t addresses
 * (tilec_swz_step). */
template <int C> __device__ __forceinline__ void tilec_ldsm_a_at(tilec_frag_a &a, unsigned t, int ri, int ci)
{
    tilec_ldsm4_(a.x, tilec_swz_step<C>(t, ri, ci));
}

template <int C> __device__ __forceinline__ void tilec_ldsm_b_at(tilec_frag_b &b, unsigned t, int ri, int ci)
{
    tilec_ldsm4t_(b.x, tilec_swz_step<C>(t, ri, ci));
}

/* c += a @ b for one 16x16x16 block: two m16n8k16 products. */
#define TILEC_MMA16(name, ty)                                                                                   \
    __device__ __forceinline__ void name(tilec_frag_acc &c, const tilec_frag_a &a, const tilec_frag_b &b)     \
    {                                                                                                         \
        _Pragma("unroll") for (int h = 0; h < 2; ++h)                                                         \
            asm("mma.sync.aligned.m16n8k16.row.col.f32." ty "." ty ".f32 {%0, %1, %2, %3}, "                  \
                "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                                              \
                         : "+f"(c.x[4 * h]), "+f"(c.x[4 * h + 1]), "+f"(c.x[4 * h + 2]), "+f"(c.x[4 * h + 3])  \
                         : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[2 * h]),               \
                           "r"(b.x[2 * h + 1]));                                                              \
    }
TILEC_MMA16(tilec_mma_bf16, "bf16")
TILEC_MMA16(tilec_mma_f16, "f16")
#undef TILEC_MMA16

/* ---- CUDA only: pipelined tile_mma K loops ---------------------------------
 * Operand runs go global -> shared with cp.async (sm_80 and later), several
 * K steps ahead of the products; see codegen/pipeline.c. */

/* One run of 8 16-bit elements of row r, columns c .. c+7, of a rows x cols
 * array (strides rs, cs) into dst (16-byte aligned shared memory); what lies
 * outside the array reads as zero.  ALIGNED (contiguous, 16-byte aligned
 * rows): one asynchronous 16-byte copy whose source size stops at the
 * array's edge, the rest zero-filled by the hardware; otherwise a plain
 * element-by-element copy. */
template <bool ALIGNED>
__device__ __forceinline__ void tilec_pipe_copy8(uint16_t *dst, const uint16_t *src, int64_t r, int64_t c, int64_t rows,
                                                 int64_t cols, int64_t rs, int64_t cs)
{
    const bool row_in = r >= 0 && r < rows;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const bool async = ALIGNED;
#else
    const bool async = false;
#endif
    if (async) {
        const int64_t left = row_in && c >= 0 && c < cols ? cols - c : 0;
        const int bytes = left >= 8 ? 16 : (int)left * 2;
        const uint16_t *p = bytes ? src + r * rs + c : src;
        const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(p), "r"(bytes) : "memory");
    } else {
        union { uint4 w; uint16_t h[8]; } u;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const int64_t cj = c + j;
            u.h[j] = row_in && cj >= 0 && cj < cols ? src[r * rs + cj * cs] : (uint16_t)0;
        }
        *reinterpret_cast<uint4 *>(dst) = u.w;
    }
}

/* 16 bytes global -> shared, both 16-byte aligned and wholly inside their
 * arrays: asynchronous on sm_80 and later. */
__device__ __forceinline__ void tilec_pipe_copy16(uint16_t *dst, const uint16_t *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
#else
    *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
#endif
}

/* One chunk of V 16-bit elements of a view's box (codegen/view.c,
 * view_box_issue): columns c .. c+V-1 of the row that starts at src + row
 * (when row_in: the row lies inside the array), cols long at stride cs,
 * into dst; what lies outside the array reads pad.  A chunk wholly inside a
 * contiguous row and aligned to its size is one asynchronous copy of 2V
 * bytes (sm_80 and later); the others, at the edges, element by element. */
template <int V>
__device__ __forceinline__ void tilec_box_copy(uint16_t *dst, const uint16_t *src, int64_t row, int64_t c, int64_t cols,
                                               int64_t cs, bool row_in, uint16_t pad)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (V > 1 && row_in && cs == 1 && c >= 0 && c + V <= cols) {
        const uint16_t *p = src + row + c;
        if (((uintptr_t)p & (uintptr_t)(2 * V - 1)) == 0) {
            const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
            if (V == 8)
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(p) : "memory");
            else
                asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(p), "n"(2 * V) : "memory");
            return;
        }
    }
#endif
#pragma unroll
    for (int e = 0; e < V; ++e) {
        const int64_t ce = c + e;
        dst[e] = row_in && ce >= 0 && ce < cols ? src[row + ce * cs] : pad;
    }
}

/* __byte_perm (PRMT), and its definition for the host (tests/unit/test_swz.cu):
 * result byte i is byte ((sel >> 4i) & 7) of the eight of y:x, x's first. */
__host__ __device__ __forceinline__ unsigned tilec_byte_perm(unsigned x, unsigned y, unsigned sel)
{
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, y, sel);
#else
    const unsigned long long xy = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; ++i) r |= (unsigned)((xy >> (8 * ((sel >> (4 * i)) & 7))) & 0xffu) << (8 * i);
    return r;
#endif
}

/* The 8 16-bit elements s .. s+7 (0 <= s < 8) of the 16 in a, b (a's
 * first): a gather's run that starts anywhere in a view's box, read as the
 * two aligned 16-byte words around it (codegen/view.c, view_box_gather).
 * Whole words by selects, the odd half by a byte permutation. */
__host__ __device__ __forceinline__ uint4 tilec_shift_h8(uint4 a, uint4 b, int s)
{
    const unsigned w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    const int q = s >> 1;
    unsigned v[5];
#pragma unroll
    for (int i = 0; i < 5; ++i) {
        const unsigned x = (q & 2) ? w[i + 2] : w[i], y = (q & 2) ? w[i + 3] : w[i + 1];
        v[i] = (q & 1) ? y : x;
    }
    const unsigned sel = (s & 1) ? 0x5432u : 0x3210u;
    uint4 r;
    r.x = tilec_byte_perm(v[0], v[1], sel);
    r.y = tilec_byte_perm(v[1], v[2], sel);
    r.z = tilec_byte_perm(v[2], v[3], sel);
    r.w = tilec_byte_perm(v[3], v[4], sel);
    return r;
}

/* Closes the group of copies issued since the last commit. */
__device__ __forceinline__ void tilec_pipe_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Waits until at most N committed groups of this thread are in flight. */
template <int N> __device__ __forceinline__ void tilec_pipe_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* Lets kernel fn have `bytes` of dynamic shared memory (beyond 48 KB a
 * kernel must opt in). */
static inline tilec_status tilec_smem_opt_in(const void *fn, int bytes)
{
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (e == cudaSuccess) return TILEC_OK;
    (void)cudaGetLastError(); /* not sticky: the next launch must not see it */
    return tilec_fail(TILEC_ERR_CUDA, "%s: %s (the kernel needs %d bytes of shared memory)", cudaGetErrorName(e),
                      cudaGetErrorString(e), bytes);
}

/* ---- CUDA only: the launchers' device check ------------------------------- */

/* Whether the current device can read and write array a's memory, so that
 * a host pointer handed to a CUDA launcher is a status naming the argument
 * instead of an illegal-address fault at the next synchronisation.
 * cudaPointerGetAttributes says what the memory is:
 *  - device memory of the current device, managed memory, and pinned or
 *    registered host memory (mapped into every device under unified
 *    addressing) pass;
 *  - device memory of another device passes when cudaDeviceCanAccessPeer
 *    says the current device can reach it (the application must also have
 *    called cudaDeviceEnablePeerAccess, which no query can see);
 *  - pageable host memory (malloc, NumPy) passes only on a device with
 *    cudaDevAttrPageableMemoryAccess (HMM or ATS systems);
 *  - anything else is TILEC_ERR_DEVICE: "argument 'x': host memory
 *    (pageable), the launch runs on device 0 ...".
 * Empty arrays pass (nothing is accessed), and so does everything while
 * tilec_device_check_enabled() is 0.  Successes for device and managed
 * memory are cached per thread (16 entries keyed on the data pointer and
 * the current device), so a hot loop over the same buffers pays a table
 * lookup per array and one cudaGetDevice per launch: a launcher passes
 * the same int, initialised to -1, for all its arrays (current_device:
 * queried at the first call, reused after).  Host memory is queried every
 * time, because host addresses are reused after free.  An error a query
 * raised is cleared, so it cannot surface as the launch's status. */
static inline tilec_status tilec_check_device(const tilec_array *a, const char *name, int *current_device = NULL)
{
    enum { TILEC_DEVCACHE_N_ = 16, TILEC_DEVMAX_ = 64 };
    static thread_local const void *cache_ptr_[TILEC_DEVCACHE_N_];
    static thread_local int cache_dev_[TILEC_DEVCACHE_N_];
    static thread_local unsigned cache_next_;
    static thread_local signed char pageable_[TILEC_DEVMAX_]; /* 0 unknown, 1 no, 2 yes */
    const char *nm = name ? name : "?";
    if (!a || !a->data || tilec_array_numel(a) == 0 || !tilec_device_check_enabled()) return TILEC_OK;
    int dev = current_device ? *current_device : -1;
    cudaError_t e;
    if (dev < 0) {
        e = cudaGetDevice(&dev);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return tilec_fail(TILEC_ERR_CUDA, "argument '%s': cudaGetDevice: %s: %s", nm, cudaGetErrorName(e),
                              cudaGetErrorString(e));
        }
        if (current_device) *current_device = dev;
    }
    for (int i = 0; i < TILEC_DEVCACHE_N_; i++)
        if (cache_ptr_[i] == a->data && cache_dev_[i] == dev) return TILEC_OK;
    cudaPointerAttributes at{};
    e = cudaPointerGetAttributes(&at, a->data);
    if (e != cudaSuccess) {
        /* CUDA before 11 answered cudaErrorInvalidValue for pageable memory */
        (void)cudaGetLastError();
        at.type = cudaMemoryTypeUnregistered;
    }
    bool cache = false;
    switch (at.type) {
    case cudaMemoryTypeDevice:
        if (at.device != dev) {
            int can = 0;
            if (cudaDeviceCanAccessPeer(&can, dev, at.device) != cudaSuccess) {
                (void)cudaGetLastError();
                can = 0;
            }
            if (!can)
                return tilec_fail(TILEC_ERR_DEVICE,
                                  "argument '%s': memory of device %d, the launch runs on device %d, which "
                                  "has no peer access to it",
                                  nm, at.device, dev);
        }
        cache = true;
        break;
    case cudaMemoryTypeManaged: cache = true; break;
    case cudaMemoryTypeHost: break; /* pinned or registered: mapped for every device */
    default: { /* cudaMemoryTypeUnregistered: pageable host memory */
        int yes = 0;
        if (dev >= 0 && dev < TILEC_DEVMAX_ && pageable_[dev]) {
            yes = pageable_[dev] == 2;
        } else {
            if (cudaDeviceGetAttribute(&yes, cudaDevAttrPageableMemoryAccess, dev) != cudaSuccess) {
                (void)cudaGetLastError();
                yes = 0;
            }
            if (dev >= 0 && dev < TILEC_DEVMAX_) pageable_[dev] = (signed char)(yes ? 2 : 1);
        }
        if (!yes)
            return tilec_fail(TILEC_ERR_DEVICE,
                              "argument '%s': host memory (pageable), the launch runs on device %d, which "
                              "cannot access pageable memory (pass device, managed or pinned memory; "
                              "TILEC_NO_DEVICE_CHECK=1 skips this check)",
                              nm, dev);
        break;
    }
    }
    if (cache) {
        cache_ptr_[cache_next_ % TILEC_DEVCACHE_N_] = a->data;
        cache_dev_[cache_next_ % TILEC_DEVCACHE_N_] = dev;
        cache_next_++;
    }
    return TILEC_OK;
}
#endif

/* ---- tile_assert ----------------------------------------------------------
 * A generated file with asserts keeps one record of its first failed
 * assertion (a static variable; __device__ on the GPU): failed is set once,
 * by compare-and-swap, so only the first failure's site and block are kept.
 * The launcher reads it after the launch, resets it, and reports it. */
typedef struct tilec_assert_record {
    unsigned int failed; /* 0, or 1 once a block failed */
    int site;            /* the failed assertion: an index of the file's table */
    int bx, by, bz;      /* the block */
} tilec_assert_record;

TILEC_OP void tilec_assert_fail(tilec_assert_record *r, int site, int bx, int by, int bz)
{
#if defined(__CUDA_ARCH__)
    if (atomicCAS(&r->failed, 0u, 1u) != 0u) return;
#elif defined(__GNUC__)
    unsigned int zero = 0; /* host blocks run in parallel under OpenMP */
    if (!__atomic_compare_exchange_n(&r->failed, &zero, 1u, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
#else
    if (r->failed) return;
    r->failed = 1;
#endif
    r->site = site;
    r->bx = bx;
    r->by = by;
    r->bz = bz;
}

/* The launcher's report of a failure: TILEC_ERR_ASSERT, with "FILE:LINE:COL:
 * assertion `COND` failed in block (x, y, z): MESSAGE" as the last error
 * (where: the site's text up to "failed"; msg may be NULL). */
static inline tilec_status tilec_assert_report(const tilec_assert_record *r, const char *const *where,
                                               const char *const *msg, int nsites)
{
    if (r->site < 0 || r->site >= nsites) return tilec_fail(TILEC_ERR_ASSERT, "assertion failed in block (%d, %d, %d)", r->bx, r->by, r->bz);
    const char *m = msg[r->site];
    return tilec_fail(TILEC_ERR_ASSERT, "%s in block (%d, %d, %d)%s%s", where[r->site], r->bx, r->by, r->bz, m ? ": " : "",
                      m ? m : "");
}
#endif
