/* tilec_flash.h: the main loop of a fused attention kernel on tensor cores
 * (CUDA only; codegen/flash.c recognises the loop in a user's kernel and
 * calls tilec_flash_fwd in place of it, in the kernel's "flash" variant).
 *
 * The loop it implements, for one block of BM = 16 * MT * WARPS query rows
 * (warp w owns rows 16 MT w .. 16 MT (w + 1) - 1, MT m-tiles of 16 rows)
 * walking key blocks n = n0 .. n1 - 1 of BN keys:
 *
 *     s     = (q @ k_n^T) * qk_scale          float32 accumulators
 *     s     = mask(row, col, n) ? s : -inf    (HAS_MASK; skipped in a warp's
 *                                             block where full(r0, r1, n) says the
 *                                             mask is true on rows r0 .. r1, every column)
 *     mnew  = max(m, rowmax(s))
 *     p     = exp2(s - mnew)                  (EXP: 0 exp2f, 1 ex2.approx, 2 expf, 3 __expf)
 *     alpha = exp2(m - mnew)
 *     l     = l * alpha + rowsum(p)
 *     o     = o * alpha + (T)p @ v_n          p rounded to T once
 *     m     = mnew
 *
 * Registers: lane 4g + t of warp w holds, of m-tile mt, rows
 * r = 16 MT w + 16 mt + g and r + 8 of every float32 tile, columns 8j + 2t and
 * 8j + 2t + 1 of each 8-column block j (mma.sync m16n8k16's accumulator
 * layout): o[mt][j][0..1] row r, o[mt][j][2..3] row r + 8; m[mt][h] and
 * l[mt][h] are row r + 8h.  Each K and V fragment read from shared memory
 * serves the MT m-tiles.  l is this thread's partial sum
 * over its own columns; the caller adds the four partial sums of a row
 * (tilec_flash_row_sum) when the loop is done.  The score tile s of one key
 * block becomes the A operand of the second product in registers: the
 * accumulator layout of two neighbouring 8-column blocks is the A layout of
 * one 16-deep slice.
 *
 * Memory: k_n and v_n are copied global -> shared with cp.async into
 * STAGES stages each (BN x D 16-bit elements, 16-byte runs of row r stored
 * at run index ^ (r % 8), so that ldmatrix's eight rows fall in eight
 * different bank groups), the copies of blocks n + 1 .. n + STAGES - 1 in
 * flight while block n computes.  Key rows at or past nkeys read as zero
 * (their scores are whatever the mask makes of them).  smem must hold
 * 2 * STAGES * BN * D 16-bit elements, 16-byte aligned; q is at qs (BM x D, tilec_flash_swz<D>'s
 * layout), read again for every key block: FlashAttention 2's choice for
 * D = 128, which leaves the registers to s and o.
 *
 * Products: mma.sync m16n8k16 from ldmatrix fragments; or, compiled for
 * sm_90a with one m-tile a warp in whole warpgroups and D, BN of 64 or 128
 * (tilec_flash_wg), wgmma m64nNk16, each warpgroup on its 64 rows: s from
 * q and k in shared memory (both K-major), o from p in registers and v in
 * shared memory (MN-major).  wgmma's accumulator gives each warp 16 rows
 * in mma.sync's C layout, so the registers above and the softmax step are
 * the same on both paths; q and the stages then take wgmma's swizzled
 * layout instead (tilec_flash_at), and the caller aligns them to 1024
 * bytes. */
#ifndef TILEC_FLASH_H
#define TILEC_FLASH_H
#include <stdlib.h>
#include <string.h>

#include "tilec_ops.h"

#ifdef __CUDACC__
#include "tilec_sm90.h"

/* float pairs to packed 16-bit pairs, and m16n8k16 products, per type. */
template <bool BF16> struct tilec_flash_ty;
#define TILEC_FLASH_TY(BF16, T2, CVT, PTX)                                                                      \
    template <> struct tilec_flash_ty<BF16> {                                                                 \
        static __device__ __forceinline__ unsigned pack(float a, float b)                                     \
        {                                                                                                     \
            T2 h = CVT(a, b);                                                                                 \
            return *reinterpret_cast<unsigned *>(&h);                                                         \
        }                                                                                                     \
        static __device__ __forceinline__ void mma(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) \
        {                                                                                                     \
            asm("mma.sync.aligned.m16n8k16.row.col.f32." PTX "." PTX ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
                "{%8, %9}, {%0, %1, %2, %3};\n"                                                               \
                : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                              \
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));                              \
        }                                                                                                     \
    };
TILEC_FLASH_TY(false, __half2, __floats2half2_rn, "f16")
TILEC_FLASH_TY(true, __nv_bfloat162, __floats2bfloat162_rn, "bf16")
#undef TILEC_FLASH_TY

/* Element offset of 16-byte run c of row r in a swizzled buffer of rows of
 * D 16-bit elements (D a multiple of 64: at least eight runs a row). */
template <int D> __device__ __forceinline__ int tilec_flash_swz(int r, int c)
{
    return r * D + ((c ^ (r & 7)) << 3);
}

/* Whether tilec_flash_fwd runs its products on wgmma (compiled for sm_90a,
 * one m-tile a warp, whole warpgroups, D and BN of 64 or 128): a constant
 * of the device pass, false on the host and on other architectures.
 * codegen/flash.c's flash_may_wgmma asks the same of a loop, to align its
 * buffers for this layout. */
template <int D, int BN, int WARPS, int MT> __host__ __device__ constexpr bool tilec_flash_wg()
{
#if TILEC_SM90A
    return MT == 1 && WARPS % 4 == 0 && (D == 64 || D == 128) && (BN == 64 || BN == 128);
#else
    return false;
#endif
}

/* Element offset of 16-byte run c of row r in a buffer of ROWS rows of D
 * 16-bit elements.  For mma.sync (ldmatrix) tilec_flash_swz's rows; for
 * wgmma (WG) its canonical K-major layout with the 128-byte swizzle: the
 * row's 64-element chunks in ROWS x 128-byte slabs, chunk c / 8 at
 * ROWS * 64 elements, run c % 8 of row r at run (c % 8) ^ (r % 8), so that
 * 8 rows make one 1024-byte atom (the buffer 1024-byte aligned). */
template <int D, int ROWS, bool WG> __device__ __forceinline__ int tilec_flash_at(int r, int c)
{
    return WG ? (c >> 3) * (ROWS * 64) + r * 64 + (((c & 7) ^ (r & 7)) << 3) : tilec_flash_swz<D>(r, c);
}

#if TILEC_SM90A
/* wgmma.mma_async m64nNk16 for the two products of tilec_flash_fwd, per
 * type: s = q @ k^T (both operands in shared memory, K-major) and
 * o += p @ v (p from registers, v's rows MN-major: the transposed B). */
template <bool BF16> struct tilec_flash_wgty;
/* The accumulator operands: d[j][0..3] of 8-column blocks j, numbered
 * %0 .. %(N/2 - 1) in order (nvcc has no named operands); the others
 * follow them, their numbers spelled out per N. */
#define TILEC_FLASH_D4(j) "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
#define TILEC_FLASH_D64                                                                                        \
    TILEC_FLASH_D4(0), TILEC_FLASH_D4(1), TILEC_FLASH_D4(2), TILEC_FLASH_D4(3), TILEC_FLASH_D4(4),             \
        TILEC_FLASH_D4(5), TILEC_FLASH_D4(6), TILEC_FLASH_D4(7)
#define TILEC_FLASH_D128                                                                                       \
    TILEC_FLASH_D64, TILEC_FLASH_D4(8), TILEC_FLASH_D4(9), TILEC_FLASH_D4(10), TILEC_FLASH_D4(11),             \
        TILEC_FLASH_D4(12), TILEC_FLASH_D4(13), TILEC_FLASH_D4(14), TILEC_FLASH_D4(15)
#define TILEC_FLASH_R64                                                                                        \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                                   \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILEC_FLASH_R128                                                                                       \
    TILEC_FLASH_R64 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "        \
                    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
/* ss: d (64 x N, the accumulator layout) = a x b (+ d where acc), a and b
 * from shared memory, K-major (b's rows are its N columns); rs: d += a x
 * b, a from registers (four 16-bit pairs, mma.sync's A layout on each
 * warp's 16 rows), b from shared memory, MN-major. */
#define TILEC_FLASH_WGMMA(PTX, N, REGS, OUTS, SS_AB, SS_ACC, RS_AB)                                            \
    static __device__ __forceinline__ void ss(float (&d)[N / 8][4], uint64_t a, uint64_t b, int acc)           \
    {                                                                                                          \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " SS_ACC ", 0;\n"                                       \
                     "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." PTX "." PTX " {" REGS "}, " SS_AB ", "  \
                     "p, 1, 1, 0, 0;\n}\n"                                                                     \
                     : OUTS                                                                                    \
                     : "l"(a), "l"(b), "r"(acc));                                                              \
    }                                                                                                          \
    static __device__ __forceinline__ void rs(float (&d)[N / 8][4], const unsigned (&a)[4], uint64_t b)        \
    {                                                                                                          \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                \
                     "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." PTX "." PTX " {" REGS "}, " RS_AB       \
                     ", p, 1, 1, 1;\n}\n"                                                                     \
                     : OUTS                                                                                    \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));                                    \
    }
#define TILEC_FLASH_WGTY(BF16, PTX)                                                                            \
    template <> struct tilec_flash_wgty<BF16> {                                                                \
        TILEC_FLASH_WGMMA(PTX, 64, TILEC_FLASH_R64, TILEC_FLASH_D64, "%32, %33", "%34",                        \
                          "{%32, %33, %34, %35}, %36")                                                         \
        TILEC_FLASH_WGMMA(PTX, 128, TILEC_FLASH_R128, TILEC_FLASH_D128, "%64, %65", "%66",                     \
                          "{%64, %65, %66, %67}, %68")                                                         \
    };
TILEC_FLASH_WGTY(false, "f16")
TILEC_FLASH_WGTY(true, "bf16")
#undef TILEC_FLASH_WGTY
#undef TILEC_FLASH_WGMMA
#undef TILEC_FLASH_R128
#undef TILEC_FLASH_R64
#undef TILEC_FLASH_D128
#undef TILEC_FLASH_D64
#undef TILEC_FLASH_D4

/* Keeps the compiler from moving accesses to a thread's accumulator tile
 * across the wgmma fences around it. */
template <int N> __device__ __forceinline__ void tilec_flash_touch(float (&x)[N][4])
{
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) tilec_wgmma_touch(x[j][e]);
}
#endif

/* The four partial sums of each row (lanes 4g .. 4g + 3) added. */
__device__ __forceinline__ float tilec_flash_row_sum(float v)
{
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    return v + __shfl_xor_sync(0xffffffffu, v, 2);
}

__device__ __forceinline__ float tilec_flash_row_max(float v)
{
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 1));
    return fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
}

/* Rows n * BN .. n * BN + BN - 1 of a (rows at p + key * rs, D contiguous
 * elements each) into stage dst (tilec_flash_at's layout), zero past
 * nkeys. */
template <int D, int BN, int THREADS, bool WG>
__device__ __forceinline__ void tilec_flash_copy(uint16_t *dst, const uint16_t *p, int64_t rs, int64_t nkeys, int64_t n)
{
    constexpr int RUNS = D / 8, ROWS = THREADS / RUNS; /* a thread copies run c of rows r0, r0 + ROWS, ... */
    static_assert(THREADS % RUNS == 0 && BN % ROWS == 0, "tilec_flash_copy: whole rows per pass");
    const int r0 = (int)threadIdx.x / RUNS, c = (int)threadIdx.x % RUNS;
    const int64_t key0 = n * BN + r0;
    const uint16_t *src = p + key0 * rs + c * 8;
    const unsigned s0 = (unsigned)__cvta_generic_to_shared(dst);
#pragma unroll
    for (int j = 0; j < BN / ROWS; ++j) {
        const bool in = key0 + j * ROWS < nkeys;
        const unsigned s = s0 + 2u * (unsigned)tilec_flash_at<D, BN, WG>(r0 + j * ROWS, c);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(in ? src : p), "r"(in ? 16 : 0)
                     : "memory");
        src += ROWS * rs;
    }
}

/* exp2(x) or e^x, accurate or approximate (tile_exp2 / tile_exp, .approx). */
template <int EXP> __device__ __forceinline__ float tilec_flash_exp(float x)
{
    return EXP == 0 ? exp2f(x) : EXP == 1 ? tilec_fast_exp2f(x) : EXP == 2 ? expf(x) : __expf(x);
}

/* The step between the two products, on this thread's rows of the score
 * tile s of key block n (mma.sync's accumulator layout, from either
 * path): scale, mask, and the online softmax; s becomes p, o and l are
 * rescaled.  A block where the mask holds on all of this warp's rows
 * (unmasked: decided at its corners) skips the per-element test, the
 * integer work that dominated the loop's issue slots. */
template <int D, int BN, int MT, int EXP, bool HAS_MASK, class Mask>
__device__ __forceinline__ void tilec_flash_softmax(float (&s)[MT][BN / 8][4], float (&o)[MT][D / 8][4],
                                                    float (&m)[MT][2], float (&l)[MT][2], bool unmasked, int row0,
                                                    int64_t n, float qk_scale, const Mask &mask)
{
    const int lane = (int)threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float mx = m[mt][h];
            if (!HAS_MASK || unmasked) {
#pragma unroll
                for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                    for (int e = 0; e < 2; ++e) {
                        const float v = s[mt][j][2 * h + e] * qk_scale;
                        s[mt][j][2 * h + e] = v;
                        mx = fmaxf(mx, v);
                    }
            } else {
#pragma unroll
                for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                    for (int e = 0; e < 2; ++e) {
                        float v = s[mt][j][2 * h + e] * qk_scale;
                        if (!mask(row0 + 16 * mt + g + 8 * h, 8 * j + 2 * t + e, n)) v = -INFINITY;
                        s[mt][j][2 * h + e] = v;
                        mx = fmaxf(mx, v);
                    }
            }
            mx = tilec_flash_row_max(mx);
            const float alpha = tilec_flash_exp<EXP>(m[mt][h] - mx);
            m[mt][h] = mx;
            float sum = 0.0f;
#pragma unroll
            for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const float p = tilec_flash_exp<EXP>(s[mt][j][2 * h + e] - mx);
                    s[mt][j][2 * h + e] = p;
                    sum += p;
                }
            l[mt][h] = l[mt][h] * alpha + sum;
#pragma unroll
            for (int j = 0; j < D / 8; ++j) o[mt][j][2 * h] *= alpha, o[mt][j][2 * h + 1] *= alpha;
        }
}

/* Slice kk (16 keys) of p rounded to T, as the A operand of the second
 * product: the accumulator layout of two neighbouring 8-column blocks is
 * the A layout of one 16-deep slice. */
template <bool BF16, int BN>
__device__ __forceinline__ void tilec_flash_pslice(unsigned (&a)[4], const float (&s)[BN / 8][4], int kk)
{
    typedef tilec_flash_ty<BF16> Ty;
    a[0] = Ty::pack(s[2 * kk][0], s[2 * kk][1]);
    a[1] = Ty::pack(s[2 * kk][2], s[2 * kk][3]);
    a[2] = Ty::pack(s[2 * kk + 1][0], s[2 * kk + 1][1]);
    a[3] = Ty::pack(s[2 * kk + 1][2], s[2 * kk + 1][3]);
}

template <bool BF16, int D, int BN, int WARPS, int MT, int STAGES, int EXP, bool HAS_MASK, class Mask, class Full>
__device__ __forceinline__ void tilec_flash_fwd(const uint16_t *qs, uint16_t *smem, const uint16_t *kp, int64_t krs,
                                                int64_t kn, const uint16_t *vp, int64_t vrs, int64_t vn, int64_t n0,
                                                int64_t n1, float qk_scale, const Mask &mask, const Full &full,
                                                float (&o)[MT][D / 8][4], float (&m)[MT][2], float (&l)[MT][2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    typedef tilec_flash_ty<BF16> Ty;
    constexpr int THREADS = 32 * WARPS, STAGE = BN * D;
    constexpr bool WG = tilec_flash_wg<D, BN, WARPS, MT>();
    static_assert(D % 64 == 0 && BN % 16 == 0 && BN <= 128, "tilec_flash_fwd: D a multiple of 64, BN of 16, BN <= 128");
    const int lane = (int)threadIdx.x & 31, warp = (int)threadIdx.x >> 5;
    const int row0 = 16 * MT * warp; /* this warp's first row; m-tile mt is rows row0 + 16mt .. + 15 */
    static_assert(STAGES >= 2 && STAGES <= 4, "tilec_flash_fwd: 2 to 4 stages");
    uint16_t *ks = smem, *vs = smem + STAGES * STAGE;
#if TILEC_SM90A
    if (WG) { /* the caller's stores of q, read by wgmma (the async proxy) */
        tilec_fence_proxy_async();
        __syncthreads();
    }
#endif
    /* blocks n0 .. n0 + STAGES - 2 in flight before the loop, one group each
     * (empty groups past n1, so that the count stays uniform) */
#pragma unroll
    for (int i = 0; i < STAGES - 1; ++i) {
        if (n0 + i < n1) {
            tilec_flash_copy<D, BN, THREADS, WG>(ks + i * STAGE, kp, krs, kn, n0 + i);
            tilec_flash_copy<D, BN, THREADS, WG>(vs + i * STAGE, vp, vrs, vn, n0 + i);
        }
        tilec_pipe_commit();
    }
    /* mma.sync: this thread's ldmatrix rows: q's for its m-tiles (row r =
     * 16mt + lane % 16, run lane / 16), k's (key 8 (lane / 16) + lane % 8,
     * run (lane / 8) % 2), at slice 0, as shared addresses */
    unsigned qaddr[MT];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
        const int r = row0 + 16 * mt + (lane & 15);
        qaddr[mt] = (unsigned)__cvta_generic_to_shared(qs + r * D + (((lane >> 4) ^ (r & 1)) << 3));
    }
    const int krow = ((lane >> 4) << 3) + (lane & 7);
    const unsigned kaddr0 = (unsigned)__cvta_generic_to_shared(ks + krow * D + ((((lane >> 3) & 1) ^ (krow & 1)) << 3));
    for (int64_t n = n0; n < n1; ++n) {
        const int st = (int)((n - n0) % STAGES);
        tilec_pipe_wait<STAGES - 2>();
#if TILEC_SM90A
        if (WG) tilec_fence_proxy_async(); /* cp.async's stores, read by wgmma */
#endif
        __syncthreads(); /* block n has landed, and every warp is done with block n - 1's stage */
        {
            const int64_t nx = n + STAGES - 1; /* into block n - 1's stage */
            const int sx = (int)((nx - n0) % STAGES);
            if (nx < n1) {
                tilec_flash_copy<D, BN, THREADS, WG>(ks + sx * STAGE, kp, krs, kn, nx);
                tilec_flash_copy<D, BN, THREADS, WG>(vs + sx * STAGE, vp, vrs, vn, nx);
            }
            tilec_pipe_commit();
        }
        const uint16_t *vst = vs + st * STAGE; /* (k's stage: kaddr0 + st * STAGE below) */
        float s[MT][BN / 8][4];
#if TILEC_SM90A
        if constexpr (WG) {
            /* s = q @ k^T on wgmma, the warpgroup's 64 rows of q (the
             * block's rows 64 (warp / 4) ..): both K-major, slice kk of
             * 16 columns 32 bytes into chunk kk / 4, 8-row atoms 1024
             * bytes apart */
            typedef tilec_flash_wgty<BF16> W;
            const unsigned qa = (unsigned)__cvta_generic_to_shared(qs) + (unsigned)(warp >> 2) * 64u * 128u;
            const unsigned ka = (unsigned)__cvta_generic_to_shared(ks + st * STAGE);
            tilec_wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < D / 16; ++kk)
                W::ss(s[0], tilec_wgmma_desc(qa + (unsigned)((kk >> 2) * 16 * WARPS * 128 + (kk & 3) * 32), 16u, 1024u, 1u),
                      tilec_wgmma_desc(ka + (unsigned)((kk >> 2) * BN * 128 + (kk & 3) * 32), 16u, 1024u, 1u), kk > 0);
            tilec_wgmma_commit();
            tilec_wgmma_wait<0>();
            tilec_flash_touch(s[0]);
        } else
#endif
        {
            /* s = q @ k^T on mma.sync: B[d][key] is k's row key, so
             * ldmatrix without .trans; lanes 8i .. 8i + 7 address matrix
             * i: keys 16p + (i / 2) * 8 + r, 8-column run 2kk + i % 2.
             * Each B fragment serves the MT m-tiles. */
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int j = 0; j < BN / 8; ++j) s[mt][j][0] = s[mt][j][1] = s[mt][j][2] = s[mt][j][3] = 0.0f;
            /* (not unrolled: ptxas would hoist every slice's loads at once and
             * run out of registers).  Run 2kk + i of a row r lies at run
             * (2kk + i) ^ (r % 8) = 2 (kk ^ (r % 8 / 2)) + (i ^ r % 2): the lanes'
             * rows are lane % 8 mod 8, so only kk ^ sx varies in the loop. */
            const int sx = (lane & 7) >> 1;
#pragma unroll 1
            for (int kk = 0; kk < D / 16; ++kk) {
                const int kx = (kk ^ sx) << 4; /* 16 elements: two runs */
                unsigned qa[MT][4]; /* q's slice kk, read again each block: registers go to s and o */
#pragma unroll
                for (int mt = 0; mt < MT; ++mt) tilec_ldsm4_(qa[mt], qaddr[mt] + 2u * (unsigned)kx);
#pragma unroll
                for (int p = 0; p < BN / 16; ++p) {
                    unsigned b[4];
                    tilec_ldsm4_(b, kaddr0 + (unsigned)(st * STAGE * 2) + 2u * (unsigned)(p * 16 * D + kx));
#pragma unroll
                    for (int mt = 0; mt < MT; ++mt) {
                        Ty::mma(s[mt][2 * p], qa[mt], b[0], b[1]);
                        Ty::mma(s[mt][2 * p + 1], qa[mt], b[2], b[3]);
                    }
                }
            }
        }
        tilec_flash_softmax<D, BN, MT, EXP, HAS_MASK>(s, o, m, l, HAS_MASK && full(row0, row0 + 16 * MT - 1, n), row0, n,
                                                      qk_scale, mask);
#if TILEC_SM90A
        if constexpr (WG) {
            /* o += p @ v on wgmma: p from registers, v MN-major (its rows
             * are keys, the product's K): chunks of 64 columns BN * 128
             * bytes apart, 8-key atoms 1024 bytes apart, slice kk of 16
             * keys 2048 bytes on */
            typedef tilec_flash_wgty<BF16> W;
            const unsigned va = (unsigned)__cvta_generic_to_shared(vst);
            tilec_flash_touch(o[0]);
            unsigned a[BN / 16][4]; /* every slice before the fence: none written between the products */
#pragma unroll
            for (int kk = 0; kk < BN / 16; ++kk) tilec_flash_pslice<BF16, BN>(a[kk], s[0], kk);
            tilec_wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < BN / 16; ++kk)
                W::rs(o[0], a[kk], tilec_wgmma_desc(va + (unsigned)kk * 2048u, (unsigned)BN * 128u, 1024u, 1u));
            tilec_wgmma_commit();
            tilec_wgmma_wait<0>();
            tilec_flash_touch(o[0]);
        } else
#endif
        /* o += p @ v on mma.sync: B[key][d] is v's row key, so ldmatrix
         * .trans; lanes 8i .. 8i + 7 address keys 16kk + (i % 2) * 8 + r,
         * 8-column run 2p + i / 2 */
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            unsigned a[MT][4];
#pragma unroll
            for (int mt = 0; mt < MT; ++mt) tilec_flash_pslice<BF16, BN>(a[mt], s[mt], kk);
#pragma unroll
            for (int p = 0; p < D / 16; ++p) {
                unsigned b[4];
                const int key = 16 * kk + (((lane >> 3) & 1) << 3) + (lane & 7);
                tilec_ldsm4t_(b, (unsigned)__cvta_generic_to_shared(vst + tilec_flash_swz<D>(key, 2 * p + (lane >> 4))));
#pragma unroll
                for (int mt = 0; mt < MT; ++mt) {
                    Ty::mma(o[mt][2 * p], a[mt], b[0], b[1]);
                    Ty::mma(o[mt][2 * p + 1], a[mt], b[2], b[3]);
                }
            }
        }
    }
    __syncthreads(); /* the stages are free for the caller */
#else
    (void)qs, (void)smem, (void)kp, (void)krs, (void)kn, (void)vp, (void)vrs, (void)vn, (void)n0, (void)n1,
        (void)qk_scale, (void)mask, (void)full, (void)o, (void)m, (void)l;
    __trap(); /* the launcher takes the flash variant on sm_80 and later only */
#endif
}

/* Whether the current device runs kernel fn from a binary built for sm_80
 * or later (where tilec_flash_fwd has a body). */
static inline bool tilec_flash_probe(const void *fn)
{
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, fn) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return a.binaryVersion >= 80;
}

#endif /* __CUDACC__ */

/* TILEC_NO_FLASH=1 in the environment: launchers take the ordinary kernel
 * instead of the flash variant (to compare the two). */
static inline bool tilec_flash_disabled(void)
{
    const char *e = getenv("TILEC_NO_FLASH");
    return e && *e && strcmp(e, "0") != 0;
}

#endif
