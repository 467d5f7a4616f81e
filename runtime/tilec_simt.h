/* tilec_simt.h: what the code generated for SIMT kernels (SIMT_KERNEL,
 * docs/language.md "SIMT kernels") calls, on both targets.
 *
 * CUDA target: atomics through cuda::atomic_ref with the memory order and
 * thread scope the source gave (helpers below, so that the generated text
 * stays one call per atomic), and the block-shape check of the launchers.
 *
 * Host target: a launch runs the grid's blocks one after another; a block's
 * threads are POSIX threads (one pool per launch, each thread running its
 * position in every block), so that barriers and warp collectives are real
 * synchronisation between running threads rather than a rewrite of the
 * kernel.  One mutex per launch guards the block state: syncthreads is a
 * counting barrier over the block's live threads, a warp collective is an
 * exchange of 64-bit slots between the live lanes of the warp (each lane
 * deposits its value, the last one to arrive publishes the slots and wakes
 * the others).  A thread that returns leaves both counts, as an exited CUDA
 * thread no longer takes part in barriers.  Warp collectives on the host
 * need every live lane of the warp to reach the same collective (converged
 * warps); their masks select results, not participants.  A SIMT_INTEROP
 * function called from C runs as one thread alone (tilec_simt_solo).
 *
 * float16 and bfloat16 (SIMT code's _Float16 and __bf16) are CUDA's __half
 * and __nv_bfloat16 on the GPU, and on the host structs of their bits with
 * one helper per operation, each computed in float and rounded once to the
 * narrow type, as CUDA's intrinsics round (codegen/simt_narrow.c). */
#ifndef TILEC_SIMT_H
#define TILEC_SIMT_H
#include <stdint.h>
#include <string.h>
#include "tilec_rt.h"
#include "tilec_vec.h"

/* The block shape of a launch: every dimension at least 1, x and y at most
 * 1024, z at most 64, at most 1024 threads in all (CUDA's limits, which the
 * host target keeps so that a launch valid on one target is valid on the
 * other). */
static inline tilec_status tilec_simt_check_block(tilec_grid b)
{
    if (b.x < 1 || b.y < 1 || b.z < 1)
        return tilec_fail(TILEC_ERR_GRID, "block (%u, %u, %u) has an empty dimension", b.x, b.y, b.z);
    if (b.x > 1024 || b.y > 1024 || b.z > 64 || (uint64_t)b.x * b.y * b.z > 1024)
        return tilec_fail(TILEC_ERR_GRID, "block (%u, %u, %u) is over CUDA's limits (x, y <= 1024, z <= 64, 1024 threads)",
                          b.x, b.y, b.z);
    return TILEC_OK;
}

/* An array of vectors (TILE_ARRAY(float32x4, N)) is a tilec_array of the
 * lanes' dtype and rank N + 1 (tilec_check_array checks those first): its
 * last dimension is the lanes, contiguous, and every vector it addresses is
 * aligned as CUDA's vector type (the data pointer and each outer stride).
 * An array of structs is one of bytes (uint8) whose last dimension is the
 * struct's size: `lanes` is then the size in bytes. */
static inline tilec_status tilec_simt_check_vectors(const tilec_array *a, const char *name, int lanes, int align)
{
    int last = a->ndim - 1;
    if (a->shape[last] != lanes || (a->strides[last] != 1 && lanes > 1))
        return tilec_fail(TILEC_ERR_SHAPE, "array of vectors or structs '%s': its last dimension must be the %d lanes (bytes) with stride 1 (shape %lld, stride %lld)",
                          name, lanes, (long long)a->shape[last], (long long)a->strides[last]);
    int64_t es = tilec_dtype_size(a->dtype);
    if ((uintptr_t)a->data % (uintptr_t)align != 0)
        return tilec_fail(TILEC_ERR_ALIGN, "array of vectors or structs '%s': data %p is not aligned to %d bytes", name, a->data, align);
    for (int d = 0; d < last; d++)
        if (a->shape[d] > 1 && (a->strides[d] * es) % align != 0)
            return tilec_fail(TILEC_ERR_ALIGN, "array of vectors or structs '%s': stride %lld of dimension %d is not a multiple of %d bytes",
                              name, (long long)a->strides[d], d, align);
    return TILEC_OK;
}

#if defined(__CUDACC__)
#include <cuda/atomic>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

/* ---- CUDA: atomics (S a cuda::thread_scope) ------------------------------ */
template <cuda::thread_scope S, class T>
static __device__ __forceinline__ T tilec_simt_atomic_load(T *p, cuda::memory_order o)
{
    return cuda::atomic_ref<T, S>(*p).load(o);
}
template <cuda::thread_scope S, class T>
static __device__ __forceinline__ void tilec_simt_atomic_store(T *p, T v, cuda::memory_order o)
{
    cuda::atomic_ref<T, S>(*p).store(v, o);
}
template <cuda::thread_scope S, class T>
static __device__ __forceinline__ T tilec_simt_atomic_exch(T *p, T v, cuda::memory_order o)
{
    return cuda::atomic_ref<T, S>(*p).exchange(v, o);
}
template <cuda::thread_scope S, class T>
static __device__ __forceinline__ T tilec_simt_atomic_cas(T *p, T expected, T v, cuda::memory_order o)
{
    cuda::atomic_ref<T, S>(*p).compare_exchange_strong(expected, v, o);
    return expected; /* the old value, whether or not it was replaced */
}
#define TILEC_SIMT_RMW_(op, call)                                                                  \
    template <cuda::thread_scope S, class T>                                                       \
    static __device__ __forceinline__ T tilec_simt_atomic_##op(T *p, T v, cuda::memory_order o)    \
    {                                                                                              \
        return cuda::atomic_ref<T, S>(*p).call(v, o);                                              \
    }
TILEC_SIMT_RMW_(add, fetch_add)
TILEC_SIMT_RMW_(sub, fetch_sub)
TILEC_SIMT_RMW_(and, fetch_and)
TILEC_SIMT_RMW_(or, fetch_or)
TILEC_SIMT_RMW_(xor, fetch_xor)
TILEC_SIMT_RMW_(max, fetch_max)
TILEC_SIMT_RMW_(min, fetch_min)
#undef TILEC_SIMT_RMW_
/* nanmax/nanmin (seed 001): NaN is a missing value, so max(a, NaN) = a and
 * max(NaN, b) = b; a compare-and-swap loop (x != x is false for integers,
 * where they are max and min). */
#define TILEC_SIMT_NAN_(op, better)                                                                \
    template <cuda::thread_scope S, class T>                                                       \
    static __device__ __forceinline__ T tilec_simt_atomic_##op(T *p, T v, cuda::memory_order o)    \
    {                                                                                              \
        cuda::atomic_ref<T, S> r_(*p);                                                             \
        T old_ = r_.load(cuda::memory_order_relaxed);                                              \
        for (;;) {                                                                                 \
            T want_ = old_ != old_ ? v : v != v ? old_ : (v better old_ ? v : old_);               \
            if (r_.compare_exchange_weak(old_, want_, o, cuda::memory_order_relaxed)) return old_; \
        }                                                                                          \
    }
TILEC_SIMT_NAN_(nanmax, >)
TILEC_SIMT_NAN_(nanmin, <)
#undef TILEC_SIMT_NAN_

/* float16 and bfloat16: load, store, exchange and compare-and-swap are the
 * templates above (atomic_ref of any 2-byte type, compared bitwise).  add is
 * atomicAdd when relaxed and at most device scope (atom.add.noftz.f16 on
 * sm_70+; bfloat16 natively on sm_90, by a 16-bit compare-and-swap loop
 * before), otherwise a compare-and-swap loop with the order; sub adds -v
 * (the same result); max, min, nanmax and nanmin are compare-and-swap loops
 * with the host target's formulas. */
#define TILEC_SIMT_NARROW_CAS_(T, op, expr)                                                        \
    template <cuda::thread_scope S>                                                                \
    static __device__ __forceinline__ T tilec_simt_atomic_##op(T *p, T v, cuda::memory_order o)    \
    {                                                                                              \
        cuda::atomic_ref<T, S> r_(*p);                                                             \
        T old_ = r_.load(cuda::memory_order_relaxed);                                              \
        for (;;) {                                                                                 \
            T new_ = (expr);                                                                       \
            if (r_.compare_exchange_weak(old_, new_, o, cuda::memory_order_relaxed)) return old_; \
        }                                                                                          \
    }
#define TILEC_SIMT_NARROW_ATOMICS_(T)                                                              \
    TILEC_SIMT_NARROW_CAS_(T, add_cas_, __hadd_rn(old_, v))                                           \
    TILEC_SIMT_NARROW_CAS_(T, sub_cas_, __hsub_rn(old_, v))                                           \
    TILEC_SIMT_NARROW_CAS_(T, max, __hgt(v, old_) ? v : old_)                                      \
    TILEC_SIMT_NARROW_CAS_(T, min, __hlt(v, old_) ? v : old_)                                      \
    TILEC_SIMT_NARROW_CAS_(T, nanmax, __hisnan(old_) ? v : __hisnan(v) ? old_ : __hgt(v, old_) ? v : old_) \
    TILEC_SIMT_NARROW_CAS_(T, nanmin, __hisnan(old_) ? v : __hisnan(v) ? old_ : __hlt(v, old_) ? v : old_) \
    template <cuda::thread_scope S>                                                                \
    static __device__ __forceinline__ T tilec_simt_atomic_add(T *p, T v, cuda::memory_order o)     \
    {                                                                                              \
        if (o == cuda::memory_order_relaxed && S != cuda::thread_scope_system) return atomicAdd(p, v); \
        return tilec_simt_atomic_add_cas_<S>(p, v, o);                                             \
    }                                                                                              \
    template <cuda::thread_scope S>                                                                \
    static __device__ __forceinline__ T tilec_simt_atomic_sub(T *p, T v, cuda::memory_order o)     \
    {                                                                                              \
        if (o == cuda::memory_order_relaxed && S != cuda::thread_scope_system) return atomicAdd(p, __hneg(v)); \
        return tilec_simt_atomic_sub_cas_<S>(p, v, o);                                             \
    }
TILEC_SIMT_NARROW_ATOMICS_(__half)
TILEC_SIMT_NARROW_ATOMICS_(__nv_bfloat16)
#undef TILEC_SIMT_NARROW_ATOMICS_
#undef TILEC_SIMT_NARROW_CAS_

/* %lanemask_lt: the lanes below this one. */
/* __match_all_sync's mask, or 0 when the lanes' values differ (its pred) */
template <class T>
static __device__ __forceinline__ unsigned tilec_simt_match_all(unsigned mask, T v)
{
    int pred;
    return __match_all_sync(mask, v, &pred);
}
static __device__ __forceinline__ unsigned tilec_simt_lanemask_lt(void)
{
    unsigned r;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
    return r;
}

/* float8 bytes to and from float (simt_fp8_e4m3_to_float ...): CUDA's
 * conversions, saturating to the largest finite value */
static __device__ __forceinline__ float tilec_simt_fp8_to_float(unsigned char v, __nv_fp8_interpretation_t k)
{
    return __half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, k)));
}
static __device__ __forceinline__ unsigned char tilec_simt_fp8_from_float(float f, __nv_fp8_interpretation_t k)
{
    return (unsigned char)__nv_cvt_float_to_fp8(f, __NV_SATFINITE, k);
}
#else /* the host target */
#include <pthread.h>
#include <stdlib.h>
#include "tilec_fp.h"

/* ---- host: float16 and bfloat16 --------------------------------------------
 * A value is its bits in a struct, so that no C operator applies to it by
 * mistake: the generated code calls these for every operation.  Each
 * operation widens its operands to float (exactly), computes there and
 * rounds the result once to the narrow type, to nearest even; for + - * /
 * that is the correctly rounded result (float's 24 bits are at least
 * 2p + 2, p = 11 and 8), which CUDA's __hadd_rn, __hsub_rn, __hmul_rn and
 * __hdiv give.  Comparisons are float's (NaN unordered); neg flips the sign bit.
 * Conversions from double and 64-bit integers round once (tilec_fp.h), as
 * CUDA's __double2half, __ll2half_rn ... do. */
/* tilec_simt_f16 and tilec_simt_bf16 are in tilec_vec.h (vectors' lanes and
 * structs' fields are made of them too). */
#define TILEC_SIMT_NARROW_(T, S)                                                                   \
    static inline T tilec_simt_##S##_bits(unsigned b)                                              \
    {                                                                                              \
        T r_ = {(uint16_t)b};                                                                      \
        return r_;                                                                                 \
    }                                                                                              \
    static inline float tilec_simt_##S##_to_f32(T x) { return tilec_##S##_to_float(x.bits); }     \
    static inline T tilec_simt_##S##_from_f32(float x) { return tilec_simt_##S##_bits(tilec_##S##_from_float(x, TILEC_RN)); } \
    static inline T tilec_simt_##S##_from_f64(double x) { return tilec_simt_##S##_bits(tilec_##S##_from_double(x, TILEC_RN)); } \
    static inline T tilec_simt_##S##_from_i64(int64_t x) { return tilec_simt_##S##_bits(tilec_##S##_from_i64(x, TILEC_RN)); } \
    static inline T tilec_simt_##S##_from_u64(uint64_t x) { return tilec_simt_##S##_bits(tilec_##S##_from_u64(x, TILEC_RN)); } \
    static inline T tilec_simt_##S##_neg(T x) { return tilec_simt_##S##_bits(x.bits ^ 0x8000u); } \
    TILEC_SIMT_NARROW_OP_(T, S, add, +)                                                            \
    TILEC_SIMT_NARROW_OP_(T, S, sub, -)                                                            \
    TILEC_SIMT_NARROW_OP_(T, S, mul, *)                                                            \
    TILEC_SIMT_NARROW_OP_(T, S, div, /)                                                            \
    TILEC_SIMT_NARROW_CMP_(T, S, eq, ==)                                                           \
    TILEC_SIMT_NARROW_CMP_(T, S, ne, !=)                                                           \
    TILEC_SIMT_NARROW_CMP_(T, S, lt, <)                                                            \
    TILEC_SIMT_NARROW_CMP_(T, S, le, <=)                                                           \
    TILEC_SIMT_NARROW_CMP_(T, S, gt, >)                                                            \
    TILEC_SIMT_NARROW_CMP_(T, S, ge, >=)
#define TILEC_SIMT_NARROW_OP_(T, S, name, op)                                                      \
    static inline T tilec_simt_##S##_##name(T a, T b)                                              \
    {                                                                                              \
        return tilec_simt_##S##_from_f32(tilec_simt_##S##_to_f32(a) op tilec_simt_##S##_to_f32(b)); \
    }
#define TILEC_SIMT_NARROW_CMP_(T, S, name, op)                                                     \
    static inline int tilec_simt_##S##_##name(T a, T b) { return tilec_simt_##S##_to_f32(a) op tilec_simt_##S##_to_f32(b); }
TILEC_SIMT_NARROW_(tilec_simt_f16, f16)
TILEC_SIMT_NARROW_(tilec_simt_bf16, bf16)
#undef TILEC_SIMT_NARROW_
#undef TILEC_SIMT_NARROW_OP_
#undef TILEC_SIMT_NARROW_CMP_

/* ---- host: atomics --------------------------------------------------------
 * GCC/Clang __atomic builtins; the floating-point operations, max and min
 * are compare-and-swap loops.  The thread scope makes no difference on the
 * host (every thread shares all memory). */
#define TILEC_SIMT_CASLOOP_(T, S, op, expr)                                                        \
    static inline T tilec_simt_atomic_##op##_##S(T *p, T v, int mo)                                \
    {                                                                                              \
        T old_, new_;                                                                              \
        __atomic_load(p, &old_, __ATOMIC_RELAXED);                                                 \
        do new_ = (expr);                                                                          \
        while (!__atomic_compare_exchange(p, &old_, &new_, 0, mo, __ATOMIC_RELAXED));              \
        return old_;                                                                               \
    }
#define TILEC_SIMT_BASIC_ATOMICS_(T, S)                                                            \
    static inline T tilec_simt_atomic_load_##S(T *p, int mo)                                       \
    {                                                                                              \
        T r_;                                                                                      \
        __atomic_load(p, &r_, mo);                                                                 \
        return r_;                                                                                 \
    }                                                                                              \
    static inline void tilec_simt_atomic_store_##S(T *p, T v, int mo) { __atomic_store(p, &v, mo); } \
    static inline T tilec_simt_atomic_exch_##S(T *p, T v, int mo)                                  \
    {                                                                                              \
        T r_;                                                                                      \
        __atomic_exchange(p, &v, &r_, mo);                                                         \
        return r_;                                                                                 \
    }                                                                                              \
    static inline T tilec_simt_atomic_cas_##S(T *p, T expected, T v, int mo, int fail)             \
    {                                                                                              \
        __atomic_compare_exchange(p, &expected, &v, 0, mo, fail);                                  \
        return expected;                                                                           \
    }
#define TILEC_SIMT_ATOMICS_(T, S)                                                                  \
    TILEC_SIMT_BASIC_ATOMICS_(T, S)                                                                \
    TILEC_SIMT_CASLOOP_(T, S, max, v > old_ ? v : old_)                                            \
    TILEC_SIMT_CASLOOP_(T, S, min, v < old_ ? v : old_)                                            \
    TILEC_SIMT_CASLOOP_(T, S, nanmax, old_ != old_ ? v : v != v ? old_ : (v > old_ ? v : old_))   \
    TILEC_SIMT_CASLOOP_(T, S, nanmin, old_ != old_ ? v : v != v ? old_ : (v < old_ ? v : old_))
#define TILEC_SIMT_INT_ATOMICS_(T, S)                                                              \
    TILEC_SIMT_ATOMICS_(T, S)                                                                      \
    static inline T tilec_simt_atomic_add_##S(T *p, T v, int mo) { return __atomic_fetch_add(p, v, mo); } \
    static inline T tilec_simt_atomic_sub_##S(T *p, T v, int mo) { return __atomic_fetch_sub(p, v, mo); } \
    static inline T tilec_simt_atomic_and_##S(T *p, T v, int mo) { return __atomic_fetch_and(p, v, mo); } \
    static inline T tilec_simt_atomic_or_##S(T *p, T v, int mo) { return __atomic_fetch_or(p, v, mo); }   \
    static inline T tilec_simt_atomic_xor_##S(T *p, T v, int mo) { return __atomic_fetch_xor(p, v, mo); }
#define TILEC_SIMT_FLOAT_ATOMICS_(T, S)                                                            \
    TILEC_SIMT_ATOMICS_(T, S)                                                                      \
    TILEC_SIMT_CASLOOP_(T, S, add, old_ + v)                                                       \
    TILEC_SIMT_CASLOOP_(T, S, sub, old_ - v)
TILEC_SIMT_INT_ATOMICS_(int32_t, i32)
TILEC_SIMT_INT_ATOMICS_(uint32_t, u32)
TILEC_SIMT_INT_ATOMICS_(int64_t, i64)
TILEC_SIMT_INT_ATOMICS_(uint64_t, u64)
TILEC_SIMT_FLOAT_ATOMICS_(float, f32)
TILEC_SIMT_FLOAT_ATOMICS_(double, f64)
/* float16 and bfloat16: the same operations through their helpers (values
 * compared bitwise by the compare-and-swap, as for every type) */
#define TILEC_SIMT_NARROW_ATOMICS_(T, S)                                                           \
    TILEC_SIMT_BASIC_ATOMICS_(T, S)                                                                \
    TILEC_SIMT_CASLOOP_(T, S, add, tilec_simt_##S##_add(old_, v))                                  \
    TILEC_SIMT_CASLOOP_(T, S, sub, tilec_simt_##S##_sub(old_, v))                                  \
    TILEC_SIMT_CASLOOP_(T, S, max, tilec_simt_##S##_gt(v, old_) ? v : old_)                        \
    TILEC_SIMT_CASLOOP_(T, S, min, tilec_simt_##S##_lt(v, old_) ? v : old_)                        \
    TILEC_SIMT_CASLOOP_(T, S, nanmax, tilec_simt_##S##_ne(old_, old_) ? v : tilec_simt_##S##_ne(v, v) ? old_ \
                                      : tilec_simt_##S##_gt(v, old_) ? v : old_)                   \
    TILEC_SIMT_CASLOOP_(T, S, nanmin, tilec_simt_##S##_ne(old_, old_) ? v : tilec_simt_##S##_ne(v, v) ? old_ \
                                      : tilec_simt_##S##_lt(v, old_) ? v : old_)
TILEC_SIMT_NARROW_ATOMICS_(tilec_simt_f16, f16)
TILEC_SIMT_NARROW_ATOMICS_(tilec_simt_bf16, bf16)
#undef TILEC_SIMT_INT_ATOMICS_
#undef TILEC_SIMT_FLOAT_ATOMICS_
#undef TILEC_SIMT_NARROW_ATOMICS_
#undef TILEC_SIMT_ATOMICS_
#undef TILEC_SIMT_BASIC_ATOMICS_
#undef TILEC_SIMT_CASLOOP_

/* ---- host: bit operations with CUDA's results (__clz(0) is 32) ---------- */
static inline int tilec_simt_popc32(uint32_t x) { return __builtin_popcount(x); }
static inline int tilec_simt_popc64(uint64_t x) { return __builtin_popcountll(x); }
static inline int tilec_simt_clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static inline int tilec_simt_clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }
static inline int tilec_simt_ffs32(uint32_t x) { return x ? __builtin_ctz(x) + 1 : 0; }
static inline int tilec_simt_ffs64(uint64_t x) { return x ? __builtin_ctzll(x) + 1 : 0; }
static inline uint32_t tilec_simt_brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, x >>= 1) r = (r << 1) | (x & 1u);
    return r;
}
static inline uint64_t tilec_simt_brev64(uint64_t x)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++, x >>= 1) r = (r << 1) | (x & 1u);
    return r;
}

/* ---- host: the threads of a launch ------------------------------------- */
typedef struct tilec_simt_warp_ {
    pthread_cond_t cv;
    int live, arrived;    /* lanes still running the block; lanes waiting */
    unsigned gen;         /* exchanges completed */
    uint32_t live_mask;   /* simt_activemask() */
    uint32_t in_mask;     /* lanes that deposited into slot for this exchange */
    uint32_t out_mask;    /* ...and of the last completed one */
    uint64_t slot[32], out[32];
} tilec_simt_warp_;

struct tilec_simt_ctx;
typedef struct tilec_simt_launch_ {
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* block barrier, end of block, start gate */
    int nthreads, live, arrived, done;
    unsigned gen, end_gen;
    int go, abort_;       /* the start gate: every thread created (or not) */
    long long acc_count;  /* syncthreads_count/and/or: the predicates summed */
    int res_count, res_n; /* ...and the last barrier's: count, threads */
    int nwarps;
    tilec_simt_warp_ warp[32];
    tilec_grid grid, block;
    uint64_t nblocks;
    void (*body)(struct tilec_simt_ctx *, const void *);
    const void *args;
    void *shared, *dyn;
} tilec_simt_launch_;

/* One thread's position; the generated body reads it as ctx_. */
typedef struct tilec_simt_ctx {
    tilec_simt_launch_ *l;
    int tx, ty, tz, bx, by, bz, bdx, bdy, bdz, gdx, gdy, gdz;
    int lane, warp;
    void *shared, *dyn;
    pthread_t th;
} tilec_simt_ctx;

/* The next block's counts: every thread live again (under the mutex). */
static inline void tilec_simt_reset_(tilec_simt_launch_ *l)
{
    l->live = l->nthreads;
    l->arrived = l->done = 0;
    l->acc_count = 0;
    for (int w = 0; w < l->nwarps; w++) {
        int n = l->nthreads - 32 * w < 32 ? l->nthreads - 32 * w : 32;
        l->warp[w].live = n;
        l->warp[w].arrived = 0;
        l->warp[w].in_mask = 0;
        l->warp[w].live_mask = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    }
}

static inline void tilec_simt_release_block_(tilec_simt_launch_ *l)
{
    l->res_count = (int)l->acc_count;
    l->res_n = l->arrived;
    l->acc_count = 0;
    l->arrived = 0;
    l->gen++;
    pthread_cond_broadcast(&l->cv);
}

static inline void tilec_simt_release_warp_(tilec_simt_warp_ *w)
{
    memcpy(w->out, w->slot, sizeof w->out);
    w->out_mask = w->in_mask;
    w->in_mask = 0;
    w->arrived = 0;
    w->gen++;
    pthread_cond_broadcast(&w->cv);
}

/* __syncthreads_count: the barrier; returns how many threads' pred was
 * nonzero, *n how many took part. */
static inline int tilec_simt_sync_(tilec_simt_ctx *c, int pred, int *n)
{
    tilec_simt_launch_ *l = c->l;
    pthread_mutex_lock(&l->mu);
    l->acc_count += pred != 0;
    unsigned g = l->gen;
    if (++l->arrived == l->live) tilec_simt_release_block_(l);
    else
        while (l->gen == g) pthread_cond_wait(&l->cv, &l->mu);
    int r = l->res_count;
    if (n) *n = l->res_n;
    pthread_mutex_unlock(&l->mu);
    return r;
}
static inline void tilec_simt_syncthreads(tilec_simt_ctx *c) { (void)tilec_simt_sync_(c, 0, NULL); }
static inline int tilec_simt_syncthreads_count(tilec_simt_ctx *c, int p) { return tilec_simt_sync_(c, p, NULL); }
static inline int tilec_simt_syncthreads_and(tilec_simt_ctx *c, int p)
{
    int n, k = tilec_simt_sync_(c, p, &n);
    return k == n;
}
static inline int tilec_simt_syncthreads_or(tilec_simt_ctx *c, int p) { return tilec_simt_sync_(c, p, NULL) != 0; }

/* The warp exchange every collective is made of: v in this lane's slot,
 * every lane's slot out; returns the lanes that took part. */
static inline uint32_t tilec_simt_xchg_(tilec_simt_ctx *c, uint64_t v, uint64_t out[32])
{
    tilec_simt_launch_ *l = c->l;
    tilec_simt_warp_ *w = &l->warp[c->warp];
    pthread_mutex_lock(&l->mu);
    w->slot[c->lane] = v;
    w->in_mask |= 1u << c->lane;
    unsigned g = w->gen;
    if (++w->arrived == w->live) tilec_simt_release_warp_(w);
    else
        while (w->gen == g) pthread_cond_wait(&w->cv, &l->mu);
    memcpy(out, w->out, sizeof w->out);
    uint32_t m = w->out_mask;
    pthread_mutex_unlock(&l->mu);
    return m;
}
static inline void tilec_simt_syncwarp(tilec_simt_ctx *c, uint32_t mask)
{
    uint64_t out[32];
    (void)mask;
    (void)tilec_simt_xchg_(c, 0, out);
}
static inline uint32_t tilec_simt_activemask(tilec_simt_ctx *c)
{
    pthread_mutex_lock(&c->l->mu);
    uint32_t m = c->l->warp[c->warp].live_mask;
    pthread_mutex_unlock(&c->l->mu);
    return m;
}
static inline uint32_t tilec_simt_lanemask_lt(tilec_simt_ctx *c) { return (1u << c->lane) - 1u; }
static inline uint32_t tilec_simt_ballot_sync(tilec_simt_ctx *c, uint32_t mask, int pred)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, pred != 0, out) & mask, r = 0;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && out[i]) r |= 1u << i;
    return r;
}
static inline int tilec_simt_all_sync(tilec_simt_ctx *c, uint32_t mask, int pred)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, pred != 0, out) & mask;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && !out[i]) return 0;
    return 1;
}
static inline int tilec_simt_any_sync(tilec_simt_ctx *c, uint32_t mask, int pred)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, pred != 0, out) & mask;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && out[i]) return 1;
    return 0;
}
/* mode 0: from lane s; 1: up by s; 2: down by s; 3: from lane ^ s (width 32:
 * a source outside the warp gives the lane its own value, as CUDA; so does
 * a lane that did not take part, whose value CUDA leaves undefined). */
static inline uint64_t tilec_simt_shfl_(tilec_simt_ctx *c, uint64_t v, int s, int mode)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, v, out);
    int src = mode == 0 ? (s & 31) : mode == 1 ? c->lane - s : mode == 2 ? c->lane + s : c->lane ^ (s & 31);
    return src < 0 || src > 31 || !(m >> src & 1u) ? v : out[src];
}
static inline int tilec_simt_eq_sync(tilec_simt_ctx *c, uint32_t mask, int pred)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, pred != 0, out) & mask;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && out[i] != (uint64_t)(pred != 0)) return 0;
    return 1;
}
static inline uint32_t tilec_simt_match_all_(tilec_simt_ctx *c, uint32_t mask, uint64_t v)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, v, out) & mask;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && out[i] != v) return 0;
    return mask;
}
static inline uint32_t tilec_simt_match_any_(tilec_simt_ctx *c, uint32_t mask, uint64_t v)
{
    uint64_t out[32];
    uint32_t m = tilec_simt_xchg_(c, v, out) & mask, r = 0;
    for (int i = 0; i < 32; i++)
        if ((m >> i & 1u) && out[i] == v) r |= 1u << i;
    return r;
}
#define TILEC_SIMT_SHFL_(T, S)                                                                     \
    static inline T tilec_simt_shfl_##S(tilec_simt_ctx *c, uint32_t mask, T v, int s, int mode)    \
    {                                                                                              \
        uint64_t b_ = 0;                                                                           \
        T r_;                                                                                      \
        (void)mask;                                                                                \
        memcpy(&b_, &v, sizeof v);                                                                 \
        b_ = tilec_simt_shfl_(c, b_, s, mode);                                                     \
        memcpy(&r_, &b_, sizeof r_);                                                               \
        return r_;                                                                                 \
    }                                                                                              \
    static inline uint32_t tilec_simt_match_any_##S(tilec_simt_ctx *c, uint32_t mask, T v)        \
    {                                                                                              \
        uint64_t b_ = 0;                                                                           \
        memcpy(&b_, &v, sizeof v);                                                                 \
        return tilec_simt_match_any_(c, mask, b_);                                                 \
    }                                                                                              \
    static inline uint32_t tilec_simt_match_all_##S(tilec_simt_ctx *c, uint32_t mask, T v)        \
    {                                                                                              \
        uint64_t b_ = 0;                                                                           \
        memcpy(&b_, &v, sizeof v);                                                                 \
        return tilec_simt_match_all_(c, mask, b_);                                                 \
    }
TILEC_SIMT_SHFL_(int32_t, i32)
TILEC_SIMT_SHFL_(uint32_t, u32)
TILEC_SIMT_SHFL_(int64_t, i64)
TILEC_SIMT_SHFL_(uint64_t, u64)
TILEC_SIMT_SHFL_(float, f32)
TILEC_SIMT_SHFL_(double, f64)
TILEC_SIMT_SHFL_(tilec_simt_f16, f16)
TILEC_SIMT_SHFL_(tilec_simt_bf16, bf16)
#undef TILEC_SIMT_SHFL_

/* A thread leaves the block: barriers stop counting it, and the last one
 * out starts the next block (all threads wait here until then). */
static inline void tilec_simt_leave_(tilec_simt_ctx *c)
{
    tilec_simt_launch_ *l = c->l;
    tilec_simt_warp_ *w = &l->warp[c->warp];
    pthread_mutex_lock(&l->mu);
    l->live--;
    if (l->arrived && l->arrived == l->live) tilec_simt_release_block_(l);
    w->live--;
    w->live_mask &= ~(1u << c->lane);
    if (w->arrived && w->arrived == w->live) tilec_simt_release_warp_(w);
    unsigned g = l->end_gen;
    if (++l->done == l->nthreads) {
        tilec_simt_reset_(l);
        l->end_gen++;
        pthread_cond_broadcast(&l->cv);
    } else {
        while (l->end_gen == g) pthread_cond_wait(&l->cv, &l->mu);
    }
    pthread_mutex_unlock(&l->mu);
}

static inline void *tilec_simt_thread_(void *arg)
{
    tilec_simt_ctx *c = (tilec_simt_ctx *)arg;
    tilec_simt_launch_ *l = c->l;
    pthread_mutex_lock(&l->mu);
    while (!l->go) pthread_cond_wait(&l->cv, &l->mu);
    int stop = l->abort_;
    pthread_mutex_unlock(&l->mu);
    if (stop) return NULL;
    const uint64_t gx = l->grid.x, gy = l->grid.y;
    for (uint64_t k = 0; k < l->nblocks; k++) {
        c->bx = (int)(k % gx);
        c->by = (int)(k / gx % gy);
        c->bz = (int)(k / (gx * gy));
        l->body(c, l->args);
        tilec_simt_leave_(c);
    }
    return NULL;
}

/* Runs body over grid x block threads; shared_bytes of static shared memory
 * (the kernel's struct of shared variables), aligned to shared_align bytes
 * (a power of two: SIMT_ALIGN arrays in it), and dyn bytes of dynamic shared
 * memory (16-byte aligned), both one per launch, reused by block after
 * block as a GPU's are (zeroed once here, where the GPU leaves them
 * undefined). */
static inline tilec_status tilec_simt_run_aligned(tilec_grid grid, tilec_grid block, size_t dyn, size_t shared_bytes,
                                                  size_t shared_align, void (*body)(tilec_simt_ctx *, const void *),
                                                  const void *args)
{
    const int n = (int)(block.x * block.y * block.z);
    tilec_simt_launch_ *l = (tilec_simt_launch_ *)calloc(1, sizeof *l);
    tilec_simt_ctx *cs = (tilec_simt_ctx *)calloc((size_t)n, sizeof *cs);
    if (shared_align < 16) shared_align = 16;
    size_t sh_bytes = (shared_bytes + shared_align - 1) / shared_align * shared_align; /* aligned_alloc's rule */
    void *sh = aligned_alloc(shared_align, sh_bytes ? sh_bytes : shared_align), *dy = calloc(1, dyn ? dyn : 1);
    if (sh) memset(sh, 0, sh_bytes);
    if (!l || !cs || !sh || !dy) {
        free(l), free(cs), free(sh), free(dy);
        return tilec_fail(TILEC_ERR_INVALID, "host SIMT launch: out of memory (%d threads, %zu bytes of dynamic shared memory)",
                          n, dyn);
    }
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
    l->nthreads = n;
    l->nwarps = (n + 31) / 32;
    for (int w = 0; w < l->nwarps; w++) pthread_cond_init(&l->warp[w].cv, NULL);
    l->grid = grid;
    l->block = block;
    l->nblocks = (uint64_t)grid.x * grid.y * grid.z;
    l->body = body;
    l->args = args;
    l->shared = sh;
    l->dyn = dy;
    tilec_simt_reset_(l);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, (size_t)1 << 21);
    int made = 0, err = 0;
    for (; made < n; made++) {
        tilec_simt_ctx *c = &cs[made];
        c->l = l;
        c->bdx = (int)block.x, c->bdy = (int)block.y, c->bdz = (int)block.z;
        c->gdx = (int)grid.x, c->gdy = (int)grid.y, c->gdz = (int)grid.z;
        c->tx = made % c->bdx;
        c->ty = made / c->bdx % c->bdy;
        c->tz = made / (c->bdx * c->bdy);
        c->lane = made % 32;
        c->warp = made / 32;
        c->shared = sh;
        c->dyn = dy;
        if ((err = pthread_create(&c->th, &at, tilec_simt_thread_, c)) != 0) break;
    }
    pthread_attr_destroy(&at);
    pthread_mutex_lock(&l->mu);
    l->go = 1;
    l->abort_ = made < n;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    for (int i = 0; i < made; i++) pthread_join(cs[i].th, NULL);
    for (int w = 0; w < l->nwarps; w++) pthread_cond_destroy(&l->warp[w].cv);
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
    free(l), free(cs), free(sh), free(dy);
    if (made < n)
        return tilec_fail(TILEC_ERR_INVALID, "host SIMT launch: could not start thread %d of %d (error %d)", made, n, err);
    return TILEC_OK;
}

/* ---- host: one thread alone ---------------------------------------------
 * A SIMT_INTEROP function called from C on the host runs as one thread:
 * thread 0 of block 0 of a 1 x 1 x 1 grid of 1 x 1 x 1 blocks, lane 0 of a
 * warp of one lane.  Barriers pass at once (syncthreads_count(p) is p != 0),
 * collectives see this lane only (a ballot is bit 0, a shuffle from
 * another lane returns the thread's own value, activemask() is 1), atomics
 * and fences are the usual ones.  Each call has its own context (on the
 * caller's stack), so host threads may call such functions concurrently. */
typedef struct tilec_simt_solo {
    tilec_simt_launch_ l;
    tilec_simt_ctx c;
} tilec_simt_solo;

static inline tilec_simt_ctx *tilec_simt_solo_begin(tilec_simt_solo *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->l.mu, NULL);
    pthread_cond_init(&s->l.cv, NULL);
    pthread_cond_init(&s->l.warp[0].cv, NULL);
    s->l.nthreads = 1;
    s->l.nwarps = 1;
    s->l.grid = s->l.block = (tilec_grid){1, 1, 1};
    s->l.nblocks = 1;
    tilec_simt_reset_(&s->l);
    s->c.l = &s->l;
    s->c.bdx = s->c.bdy = s->c.bdz = s->c.gdx = s->c.gdy = s->c.gdz = 1;
    return &s->c;
}

static inline void tilec_simt_solo_end(tilec_simt_solo *s)
{
    pthread_cond_destroy(&s->l.warp[0].cv);
    pthread_cond_destroy(&s->l.cv);
    pthread_mutex_destroy(&s->l.mu);
}

/* tilec_simt_run_aligned with malloc's alignment for the shared variables. */
static inline tilec_status tilec_simt_run(tilec_grid grid, tilec_grid block, size_t dyn, size_t shared_bytes,
                                          void (*body)(tilec_simt_ctx *, const void *), const void *args)
{
    return tilec_simt_run_aligned(grid, block, dyn, shared_bytes, 16, body, args);
}
#endif
#endif
