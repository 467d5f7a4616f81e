/* tilec_sm90.h: what the Hopper variants of generated kernels call (CUDA
 * C++, included by a .cu that has one).
 *
 * Device side, compiled only for sm_90a (TILEC_SM90A: nvcc's
 * __CUDA_ARCH_FEAT_SM90_ALL, set by -gencode arch=compute_90a,code=sm_90a):
 * mbarriers, TMA tile loads that complete on them, wgmma's shared-memory
 * descriptors, fences and group waits, register reallocation between
 * warpgroups and named barriers.  The wgmma instructions themselves, whose
 * operand lists depend on the tile, are written into the .cu by
 * codegen/hopper.c.
 *
 * Host side: the tensor maps a launcher passes (cuTensorMapEncodeTiled,
 * reached through the runtime's driver entry point so that applications
 * need not link -lcuda), cached per thread and array, and the test of
 * whether the current device runs a kernel's Hopper variant; stream-K's
 * choice and workspace. */
#ifndef TILEC_SM90_H
#define TILEC_SM90_H
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tilec_ops.h"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILEC_SM90A 1
#else
#define TILEC_SM90A 0
#endif

#if TILEC_SM90A
/* The shared-state-space address of p (a pointer into shared memory). */
__device__ __forceinline__ unsigned tilec_smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* mbarrier b expects `count` arrivals per phase. */
__device__ __forceinline__ void tilec_mbar_init(uint64_t *b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(tilec_smem_u32(b)), "r"(count) : "memory");
}

/* Makes the initialised barriers visible to the async proxy (TMA). */
__device__ __forceinline__ void tilec_mbar_fence_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* One arrival that also announces `bytes` of transfers completing on b. */
__device__ __forceinline__ void tilec_mbar_expect_tx(uint64_t *b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(tilec_smem_u32(b)), "r"(bytes)
                 : "memory");
}

/* Waits until the phase of b with this parity has completed. */
__device__ __forceinline__ void tilec_mbar_wait(uint64_t *b, unsigned parity)
{
    const unsigned a = tilec_smem_u32(b);
    unsigned done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
    } while (!done);
}

/* The box of tensor map m at (c0, c1) (innermost first, in elements) into
 * shared address dst, completing on barrier b; elements outside the array
 * arrive as zeros. */
__device__ __forceinline__ void tilec_tma_load_2d(unsigned dst, const CUtensorMap *m, uint64_t *b, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(tilec_smem_u32(b))
                 : "memory");
}

/* The same for maps of 3, 4 and 5 dimensions (a view's box: codegen/
 * hopper_view.c), coordinates innermost first; coordinates may be
 * negative, and what lies outside the array arrives as zeros. */
__device__ __forceinline__ void tilec_tma_load_3d(unsigned dst, const CUtensorMap *m, uint64_t *b, int c0, int c1, int c2)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
                 ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(c2), "r"(tilec_smem_u32(b))
                 : "memory");
}

__device__ __forceinline__ void tilec_tma_load_4d(unsigned dst, const CUtensorMap *m, uint64_t *b, int c0, int c1, int c2,
                                                  int c3)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];\n"
                 ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(tilec_smem_u32(b))
                 : "memory");
}

__device__ __forceinline__ void tilec_tma_load_5d(unsigned dst, const CUtensorMap *m, uint64_t *b, int c0, int c1, int c2,
                                                  int c3, int c4)
{
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];\n"
                 ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(tilec_smem_u32(b))
                 : "memory");
}

/* The same box into shared address dst of every CTA of the cluster in
 * mask (bit r: rank r), completing on the barrier at b's offset in each
 * (TMA multicast: one read of L2 for the blocks that share an operand). */
__device__ __forceinline__ void tilec_tma_load_2d_mc(unsigned dst, const CUtensorMap *m, uint64_t *b, int c0, int c1,
                                                     unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;\n"
                 ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(tilec_smem_u32(b)), "h"(mask)
                 : "memory");
}

/* The CTAs of this block's cluster (1 outside a cluster launch), and this
 * block's rank among them. */
__device__ __forceinline__ unsigned tilec_cluster_ncta()
{
    unsigned n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(n));
    return n;
}

__device__ __forceinline__ unsigned tilec_cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* Every thread of the cluster: what each did before (the barriers'
 * initialisation) is visible to all after. */
__device__ __forceinline__ void tilec_cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* A warp's release of barrier b: one arrival, by the lane whose `lane` is
 * 0, predicated rather than branched (a consumer warp releases each ring
 * stage between a wgmma wait and its next products: a divergent branch
 * there sits on the K loop's critical path). */
__device__ __forceinline__ void tilec_mbar_arrive_warp(uint64_t *b, unsigned lane)
{
    asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, %1, 0;\n@p mbarrier.arrive.shared::cta.b64 _, [%0];\n}\n"
                 ::"r"(tilec_smem_u32(b)), "r"(lane)
                 : "memory");
}

/* The same on barrier b (its offset) of each of the cluster's first n
 * CTAs (n is 1 or 2), this one included.  What a consumer's release
 * orders are its wgmma reads of the stage, retired by wgmma.wait_group
 * before it arrives, so the arrival's default release at CTA scope is
 * enough (a .release.cluster arrival, a fence at cluster scope, made the
 * float8 kernel twice as slow). */
__device__ __forceinline__ void tilec_mbar_arrive_cluster_warp(uint64_t *b, unsigned n, unsigned lane)
{
    asm volatile("{\n.reg .pred p, q;\n.reg .b32 ra;\nsetp.eq.u32 p, %2, 0;\nsetp.gt.and.u32 q, %1, 1, p;\n"
                 "@p mapa.shared::cluster.u32 ra, %0, 0;\n@p mbarrier.arrive.shared::cluster.b64 _, [ra];\n"
                 "@q mapa.shared::cluster.u32 ra, %0, 1;\n@q mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n"
                 ::"r"(tilec_smem_u32(b)), "r"(n), "r"(lane)
                 : "memory");
}

/* wgmma's descriptor of an operand at shared address a: leading and stride
 * byte offsets, swizzle mode (1: 128 B, 2: 64 B, 3: 32 B). */
__device__ __forceinline__ uint64_t tilec_wgmma_desc(unsigned a, unsigned lbo, unsigned sbo, unsigned mode)
{
    return (uint64_t)((a & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 | (uint64_t)mode << 62;
}

/* Orders the warpgroup's register accesses before the next wgmma. */
/* TMA store: the box at (c0, c1) (innermost first) of the array of map m
 * from shared memory at src, laid out (and swizzled) as m says; elements
 * outside the array are not written.  It joins the thread's bulk group. */
__device__ __forceinline__ void tilec_tma_store_2d(const CUtensorMap *m, unsigned src, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n"
                 ::"l"((uint64_t)m), "r"(src), "r"(c0), "r"(c1)
                 : "memory");
}

/* The same for maps of 3, 4 and 5 dimensions (a tile stored into an array
 * of higher rank: hopper_tma_store). */
__device__ __forceinline__ void tilec_tma_store_3d(const CUtensorMap *m, unsigned src, int c0, int c1, int c2)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n"
                 ::"l"((uint64_t)m), "r"(src), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
}

__device__ __forceinline__ void tilec_tma_store_4d(const CUtensorMap *m, unsigned src, int c0, int c1, int c2, int c3)
{
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n"
                 ::"l"((uint64_t)m), "r"(src), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
}

__device__ __forceinline__ void tilec_tma_store_5d(const CUtensorMap *m, unsigned src, int c0, int c1, int c2, int c3,
                                                   int c4)
{
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];\n"
                 ::"l"((uint64_t)m), "r"(src), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
}

__device__ __forceinline__ void tilec_bulk_commit()
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Until the thread's bulk stores have read their shared memory. */
__device__ __forceinline__ void tilec_bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}

/* Makes this thread's shared-memory writes visible to the async proxy (a
 * TMA store that reads them). */
__device__ __forceinline__ void tilec_fence_proxy_async()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void tilec_st_shared_b32(unsigned a, uint32_t v)
{
    asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(a), "r"(v) : "memory");
}

__device__ __forceinline__ void tilec_st_shared_v2f32(unsigned a, float x, float y)
{
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(a), "f"(x), "f"(y) : "memory");
}
/* (int32 and uint32 tiles: their bits) */
__device__ __forceinline__ void tilec_st_shared_v2b32(unsigned a, uint32_t x, uint32_t y)
{
    asm volatile("st.shared.v2.b32 [%0], {%1, %2};\n" ::"r"(a), "r"(x), "r"(y) : "memory");
}

__device__ __forceinline__ void tilec_wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void tilec_wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Waits until at most N committed wgmma groups are in flight. */
template <int N> __device__ __forceinline__ void tilec_wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/* Keeps the compiler from moving accesses to r across wgmma's fences. */
__device__ __forceinline__ void tilec_wgmma_touch(float &r)
{
    asm volatile("" : "+f"(r)::"memory");
}
__device__ __forceinline__ void tilec_wgmma_touch(int &r)
{
    asm volatile("" : "+r"(r)::"memory");
}

/* The warpgroup's registers per thread become R (a multiple of 8). */
template <int R> __device__ __forceinline__ void tilec_regs_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}

template <int R> __device__ __forceinline__ void tilec_regs_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}

/* A barrier of the first `count` threads to reach named barrier `id`. */
__device__ __forceinline__ void tilec_bar_named(int id, int count)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}

/* Arrives at named barrier `id` of `count` threads without waiting: the
 * threads that bar.sync on it go on once all have come (ping-pong's turns). */
__device__ __forceinline__ void tilec_bar_arrive(int id, int count)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}

/* Stream-K (docs/design.md, "The Hopper variant"): a tile whose K steps
 * two blocks share.  The block with the last steps leaves its partial sums
 * in the workspace and sets the tile's flag (a release store, after every
 * thread's sums are out); the block with the first steps waits for the
 * flag (an acquire load), adds the sums to its own, runs the epilogue and
 * sets the flag back to 0 for the next launch on the stream. */
__device__ __forceinline__ void tilec_sk_publish(unsigned *f)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(f), "r"(1u) : "memory");
}

__device__ __forceinline__ void tilec_sk_await(unsigned *f)
{
    unsigned v = 0;
    do {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(f) : "memory");
    } while (!v);
}

/* A vector of partial sums the other block left, from L2 (not this
 * multiprocessor's L1, which may hold an older line), in program order
 * with the accumulator's touches around it (streamk_finish). */
__device__ __forceinline__ int4 tilec_sk_load(const int4 *p)
{
    int4 v;
    asm volatile("ld.global.cg.v4.s32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}

__device__ __forceinline__ float4 tilec_sk_load(const float4 *p)
{
    const int4 v = tilec_sk_load((const int4 *)p);
    return make_float4(__int_as_float(v.x), __int_as_float(v.y), __int_as_float(v.z), __int_as_float(v.w));
}

/* wgmma.mma_async m64nNk16 on the accumulator fragments of the mma.sync
 * path (tilec_frag_acc: a warp's 16 x 16 blocks, the warpgroup's warps on
 * consecutive 16-row strips): block b's x[0 .. 7] are wgmma's registers
 * d[8b .. 8b + 7], the same lanes' elements.  A from shared memory
 * K-major, B MN-major (transposed): a pipelined K loop whose operands are
 * gathered from views (codegen/pipeline.c) runs its products on it in
 * sm_90a builds, its other code unchanged.  N = 64 or 128. */
template <bool BF16, int N> struct tilec_wgmma_frag;
#define TILEC_WGF8(b)                                                                                          \
    "+f"(c[b].x[0]), "+f"(c[b].x[1]), "+f"(c[b].x[2]), "+f"(c[b].x[3]), "+f"(c[b].x[4]), "+f"(c[b].x[5]),      \
        "+f"(c[b].x[6]), "+f"(c[b].x[7])
#define TILEC_WGF64 TILEC_WGF8(0), TILEC_WGF8(1), TILEC_WGF8(2), TILEC_WGF8(3)
#define TILEC_WGF128 TILEC_WGF64, TILEC_WGF8(4), TILEC_WGF8(5), TILEC_WGF8(6), TILEC_WGF8(7)
#define TILEC_WGR64 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "    \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILEC_WGR128 TILEC_WGR64 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "    \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TILEC_WGMMA_FRAG(BF16, PTX, N, REGS, OUTS, AB)                                                      \
    template <> struct tilec_wgmma_frag<BF16, N> {                                                             \
        static __device__ __forceinline__ void run(tilec_frag_acc (&c)[N / 16], uint64_t a, uint64_t b)        \
        {                                                                                                      \
            asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                            \
                         "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." PTX "." PTX " {" REGS "}, " AB      \
                         ", p, 1, 1, 0, 1;\n}\n"                                                              \
                         : OUTS                                                                                \
                         : "l"(a), "l"(b));                                                                    \
        }                                                                                                      \
    };
TILEC_WGMMA_FRAG(false, "f16", 64, TILEC_WGR64, TILEC_WGF64, "%32, %33")
TILEC_WGMMA_FRAG(true, "bf16", 64, TILEC_WGR64, TILEC_WGF64, "%32, %33")
TILEC_WGMMA_FRAG(false, "f16", 128, TILEC_WGR128, TILEC_WGF128, "%64, %65")
TILEC_WGMMA_FRAG(true, "bf16", 128, TILEC_WGR128, TILEC_WGF128, "%64, %65")
#undef TILEC_WGMMA_FRAG
#undef TILEC_WGR128
#undef TILEC_WGR64
#undef TILEC_WGF128
#undef TILEC_WGF64
#undef TILEC_WGF8

/* Keeps the compiler from moving accesses to fragments c across the wgmma
 * fences around them. */
template <int N> __device__ __forceinline__ void tilec_wgmma_touch_frag(tilec_frag_acc (&c)[N])
{
#pragma unroll
    for (int b = 0; b < N; ++b)
#pragma unroll
        for (int i = 0; i < 8; ++i) tilec_wgmma_touch(c[b].x[i]);
}
#endif /* TILEC_SM90A */

/* ---- host: tensor maps and the choice of variant ------------------------- */

/* TILEC_NO_SM90A=1 in the environment makes the launchers take the
 * mma.sync kernels (to compare the two, or to rule one out); read at every
 * launch, so a program may switch. */
static inline bool tilec_sm90a_disabled()
{
    const char *e = getenv("TILEC_NO_SM90A");
    return e && *e && strcmp(e, "0") != 0;
}

/* Whether kernel fn's Hopper body is in the binary the current device
 * (dev) runs: a compute capability 9.0 device, and a kernel built for
 * sm_90a, the only build whose body declares static shared memory (its
 * mbarriers; the other builds' body is empty).  Cached per device by the
 * caller. */
static inline bool tilec_sm90a_probe(const void *fn, int dev)
{
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    if (major != 9 || minor != 0) return false;
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, fn) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return fa.sharedSizeBytes > 0;
}

/* Stream-K's workspace holds TILEC_SK_SLOTS flags, then the partial sums
 * of as many tiles (codegen/hopper.c, streamk_lead): at most that many
 * tiles are shared out. */
#define TILEC_SK_SLOTS 4096

/* Stream-K: how many of a persistent grid's nt tiles (blocks of them at
 * a time) the blocks share out step by step, the last partial wave and the
 * full one before it; 0 for none.  Each block then has the same number of
 * whole tiles and of K steps, and a tile is split between at most two
 * blocks (each block's share of the shared steps is at least one tile's).
 * It pays only where the last wave is nearly empty: the shared steps put
 * the blocks out of step along K, and the operands' reuse in L2 that
 * blocks in step have is lost for the last wave or two (on an H200 a
 * 128 x 256 tile at 8192 x 8192 x 1024, a last wave half full, took 13%
 * longer; 128 x 128 at 8192^3, 4 tiles in the last wave, 1.6% less).  By
 * default, then, when the last wave fills at most 1/8 of the blocks;
 * TILEC_SM90_STREAMK=0 never, =1 whenever it is partial (tests), read at
 * every launch. */
static inline long long tilec_streamk_tiles(long long nt, long long blocks)
{
    const char *e = getenv("TILEC_SM90_STREAMK");
    const int mode = e && *e ? atoi(e) : -1;
    if (mode == 0 || blocks < 2) return 0;
    const long long w = nt / blocks, r = nt % blocks;
    if (w < 1 || r == 0 || blocks + r > TILEC_SK_SLOTS) return 0;
    if (mode < 0 && r * 8 > blocks) return 0;
    return blocks + r;
}

/* The stream-K workspace of device dev and stream s, at least `bytes`
 * (its flags zero between launches: each launch leaves them so); NULL
 * when there is none (allocation failed, the stream is being captured
 * into a graph, or 16 streams have one already), and the launcher does
 * without stream-K.  One per stream, since launches on one stream run one
 * after the other; kept for the process, grown when a launch needs more
 * (after the stream's earlier launches are done with it). */
static inline void *tilec_streamk_workspace(int dev, cudaStream_t s, size_t bytes)
{
    struct slot {
        int dev;
        cudaStream_t s;
        void *p;
        size_t n;
    };
    static slot t_[16];
    static int nt_, lock_;
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &cs) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    if (cs != cudaStreamCaptureStatusNone) return NULL;
    while (__atomic_test_and_set(&lock_, __ATOMIC_ACQUIRE)) {
    }
    slot *w = NULL;
    for (int i = 0; i < nt_ && !w; i++)
        if (t_[i].dev == dev && t_[i].s == s) w = &t_[i];
    if (!w && nt_ < 16) {
        w = &t_[nt_++];
        *w = slot{dev, s, NULL, 0};
    }
    void *p = NULL;
    if (w && w->n >= bytes) {
        p = w->p;
    } else if (w) {
        if (w->p) {
            (void)cudaStreamSynchronize(s);
            (void)cudaFree(w->p);
            w->p = NULL;
            w->n = 0;
        }
        if (cudaMalloc(&p, bytes) == cudaSuccess && cudaMemsetAsync(p, 0, bytes, s) == cudaSuccess) {
            w->p = p;
            w->n = bytes;
        } else {
            (void)cudaGetLastError();
            if (p) (void)cudaFree(p);
            p = NULL;
        }
    }
    __atomic_clear(&lock_, __ATOMIC_RELEASE);
    return p;
}

/* The blocks of a persistent grid on device dev: its multiprocessors
 * (queried once per device), or fewer when TILEC_SM90_GRID=N is set (read
 * at every launch: tests make few blocks walk many tiles with it). */
static inline long long tilec_persistent_blocks(int dev)
{
    static int n_[64];
    if (dev < 0 || dev >= 64) return 1;
    if (!n_[dev]) {
        int n = 0;
        if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n < 1) {
            (void)cudaGetLastError();
            n = 1;
        }
        n_[dev] = n;
    }
    const char *e = getenv("TILEC_SM90_GRID");
    long long cap = e && *e ? atoll(e) : 0;
    return cap > 0 && cap < n_[dev] ? cap : n_[dev];
}

/* The launch of `blocks` blocks (threads each, dyn bytes of dynamic shared
 * memory, on stream s) in clusters of two, for cudaLaunchKernelEx; at is
 * the cluster attribute cfg points to. */
static inline void tilec_cluster_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *at, long long blocks, int threads,
                                        int dyn, cudaStream_t s)
{
    *cfg = cudaLaunchConfig_t{}; /* value-initialized: dim3 members make memset a g++ -Wextra warning */
    *at = cudaLaunchAttribute{};
    at->id = cudaLaunchAttributeClusterDimension;
    at->val.clusterDim.x = 2;
    at->val.clusterDim.y = 1;
    at->val.clusterDim.z = 1;
    cfg->gridDim = dim3((unsigned)blocks);
    cfg->blockDim = dim3((unsigned)threads);
    cfg->dynamicSmemBytes = (size_t)dyn;
    cfg->stream = s;
    cfg->attrs = at;
    cfg->numAttrs = 1;
}

/* The grid of a persistent launch in clusters of two (whose blocks share
 * an operand's loads through TMA multicast) for nt tiles: two blocks for
 * each cluster the device runs at once (cudaOccupancyMaxActiveClusters,
 * asked once per device and kept in cache[dev]), no more than the tiles
 * need (two blocks for each pair of tiles), and within TILEC_SM90_GRID
 * (rounded down to even, at least 2).
 * 0 when not: TILEC_SM90_CLUSTER=1 in the environment (read at every
 * launch, to compare the two), or no cluster of the kernel's blocks fits
 * (the caller launches the blocks alone). */
static inline long long tilec_cluster_blocks(const void *fn, int dev, int threads, int dyn, long long nt, int *cache)
{
    const char *e = getenv("TILEC_SM90_CLUSTER");
    if ((e && *e && atoi(e) == 1) || dev < 0 || dev >= 64) return 0;
    if (!cache[dev]) {
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute at;
        tilec_cluster_config(&cfg, &at, 2, threads, dyn, 0);
        int n = 0;
        if (cudaOccupancyMaxActiveClusters(&n, fn, &cfg) != cudaSuccess) {
            (void)cudaGetLastError();
            n = 0;
        }
        cache[dev] = n > 0 ? n : -1;
    }
    if (cache[dev] < 0) return 0;
    long long b = 2LL * cache[dev], pairs = 2 * ((nt + 1) / 2);
    if (b > pairs) b = pairs;
    const char *g = getenv("TILEC_SM90_GRID");
    long long cap = g && *g ? atoll(g) : 0;
    if (cap > 0 && cap < b) b = cap < 2 ? 2 : cap & ~1LL;
    return b;
}

/* Whether TMA can read rank-2 array a as tiles: 16-byte aligned data and
 * stride, contiguous rows (columns when transposed: the array is read as
 * its transpose, dimension 0 innermost), dimensions that fit TMA's
 * coordinates. */
static inline bool tilec_tma_ok(const tilec_array *a, bool transposed)
{
    const int es = tilec_dtype_size(a->dtype);
    if (a->ndim != 2 || es <= 0 || ((uintptr_t)a->data & 15)) return false;
    if (a->shape[0] < 1 || a->shape[1] < 1 || a->shape[0] > INT32_MAX || a->shape[1] > INT32_MAX) return false;
    const int in = transposed ? 0 : 1, out = 1 - in;
    if (a->strides[in] != 1 && a->shape[in] != 1) return false;
    const int64_t rs = a->strides[out] * es;
    return a->strides[out] >= a->shape[in] && rs % 16 == 0 && rs < ((int64_t)1 << 40);
}

/* Whether TMA can read array a (of rank 2 to 5) through a view's boxes
 * (codegen/hopper_view.c): 16-byte aligned data, a contiguous last axis,
 * the other strides multiples of 16 bytes, extents that fit TMA's
 * coordinates. */
static inline bool tilec_tma_view_ok(const tilec_array *a, int rank)
{
    const int es = tilec_dtype_size(a->dtype);
    if (a->ndim != rank || rank < 2 || rank > 5 || es <= 0 || ((uintptr_t)a->data & 15)) return false;
    for (int d = 0; d < rank; d++) {
        if (a->shape[d] < 1 || a->shape[d] > INT32_MAX) return false;
        if (d == rank - 1) {
            if (a->strides[d] != 1 && a->shape[d] != 1) return false;
        } else if (a->strides[d] < 0 || (a->strides[d] * es) % 16 || a->strides[d] * es >= ((int64_t)1 << 40)) {
            return false;
        }
    }
    return true;
}

static inline PFN_cuTensorMapEncodeTiled_v12000 tilec_tma_encoder()
{
    static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void *p = NULL;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) !=
                cudaSuccess ||
            q != cudaDriverEntryPointSuccess) {
            (void)cudaGetLastError();
            p = NULL;
        }
        return (PFN_cuTensorMapEncodeTiled_v12000)p;
    }();
    return fn;
}

/* The tensor map of rank-2 array a (tilec_tma_ok) read in boxes of box1
 * rows by box0 elements (of its transpose when transposed), written to
 * shared memory with swizzle sw; zeros outside the array.  Encodings are
 * cached per thread (eight entries keyed on everything that goes into
 * them), so a loop launching on the same arrays encodes once. */
static inline tilec_status tilec_tma_map_2d(CUtensorMap *m, const tilec_array *a, bool transposed,
                                            CUtensorMapDataType dt, unsigned box0, unsigned box1,
                                            CUtensorMapSwizzle sw)
{
    struct Entry {
        const void *data;
        int64_t shape0, shape1, stride0, stride1;
        int dt, sw, tr;
        unsigned box0, box1;
        CUtensorMap map;
    };
    enum { TILEC_TMA_CACHE_N_ = 8 };
    static thread_local Entry cache_[TILEC_TMA_CACHE_N_];
    static thread_local unsigned next_;
    for (int i = 0; i < TILEC_TMA_CACHE_N_; i++) {
        const Entry *e = &cache_[i];
        if (e->data == a->data && e->data && e->shape0 == a->shape[0] && e->shape1 == a->shape[1] &&
            e->stride0 == a->strides[0] && e->stride1 == a->strides[1] && e->dt == (int)dt && e->sw == (int)sw &&
            e->tr == (int)transposed && e->box0 == box0 && e->box1 == box1) {
            *m = e->map;
            return TILEC_OK;
        }
    }
    PFN_cuTensorMapEncodeTiled_v12000 enc = tilec_tma_encoder();
    if (!enc) return tilec_fail(TILEC_ERR_CUDA, "cuTensorMapEncodeTiled is not available from the CUDA driver");
    const int es = tilec_dtype_size(a->dtype);
    const int in = transposed ? 0 : 1, out = 1 - in;
    const cuuint64_t dims[2] = {(cuuint64_t)a->shape[in], (cuuint64_t)a->shape[out]};
    const cuuint64_t strides[1] = {(cuuint64_t)(a->strides[out] * es)};
    const cuuint32_t box[2] = {box0, box1}, estr[2] = {1, 1};
    CUresult r = enc(m, dt, 2, a->data, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return tilec_fail(TILEC_ERR_CUDA, "cuTensorMapEncodeTiled failed (CUresult %d) for a %lld x %lld array",
                          (int)r, (long long)a->shape[0], (long long)a->shape[1]);
    Entry *e = &cache_[next_++ % TILEC_TMA_CACHE_N_];
    *e = Entry{a->data, a->shape[0], a->shape[1], a->strides[0], a->strides[1], (int)dt, (int)sw, (int)transposed, box0, box1, *m};
    return TILEC_OK;
}

/* The tensor map of array a (tilec_tma_view_ok) read in boxes of box[d]
 * elements along map dimension d (array axis rank - 1 - d: innermost
 * first), every estr[d]-th of them, written to shared memory with swizzle
 * sw; zeros outside the array.  Cached per thread as tilec_tma_map_2d's. */
static inline tilec_status tilec_tma_map_view(CUtensorMap *m, const tilec_array *a, CUtensorMapDataType dt, int rank,
                                              const unsigned *box, const unsigned *estr, CUtensorMapSwizzle sw)
{
    struct Entry {
        const void *data;
        int64_t shape[5], stride[5];
        int dt, sw, rank;
        unsigned box[5], estr[5];
        CUtensorMap map;
    };
    enum { TILEC_TMA_VIEW_CACHE_N_ = 8 };
    static thread_local Entry cache_[TILEC_TMA_VIEW_CACHE_N_];
    static thread_local unsigned next_;
    Entry k;
    memset(&k, 0, sizeof k);
    k.data = a->data;
    k.dt = (int)dt;
    k.sw = (int)sw;
    k.rank = rank;
    for (int d = 0; d < rank; d++) {
        k.shape[d] = a->shape[d];
        k.stride[d] = a->strides[d];
        k.box[d] = box[d];
        k.estr[d] = estr[d];
    }
    for (int i = 0; i < TILEC_TMA_VIEW_CACHE_N_; i++) {
        const Entry *e = &cache_[i];
        if (e->data && e->data == k.data && e->dt == k.dt && e->sw == k.sw && e->rank == k.rank &&
            !memcmp(e->shape, k.shape, sizeof k.shape) && !memcmp(e->stride, k.stride, sizeof k.stride) &&
            !memcmp(e->box, k.box, sizeof k.box) && !memcmp(e->estr, k.estr, sizeof k.estr)) {
            *m = e->map;
            return TILEC_OK;
        }
    }
    PFN_cuTensorMapEncodeTiled_v12000 enc = tilec_tma_encoder();
    if (!enc) return tilec_fail(TILEC_ERR_CUDA, "cuTensorMapEncodeTiled is not available from the CUDA driver");
    const int es = tilec_dtype_size(a->dtype);
    cuuint64_t dims[5], strides[4];
    cuuint32_t bx[5], es_[5];
    for (int d = 0; d < rank; d++) {
        dims[d] = (cuuint64_t)a->shape[rank - 1 - d];
        if (d) strides[d - 1] = (cuuint64_t)(a->strides[rank - 1 - d] * es);
        bx[d] = box[d];
        es_[d] = estr[d];
    }
    CUresult r = enc(m, dt, (cuuint32_t)rank, a->data, dims, strides, bx, es_, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return tilec_fail(TILEC_ERR_CUDA, "cuTensorMapEncodeTiled failed (CUresult %d) for a view of a rank-%d array", (int)r,
                          rank);
    k.map = *m;
    cache_[next_++ % TILEC_TMA_VIEW_CACHE_N_] = k;
    return TILEC_OK;
}
#endif
