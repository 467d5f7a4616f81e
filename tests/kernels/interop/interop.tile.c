/* interop.tile.c: the two directions between Tile C and CUDA C++.
 * TILE_EXTERN functions, defined in CUDA C++ (extern.cu) for the GPU and in
 * C (extern.c) for the host target, applied element by element to tiles,
 * with broadcasting and implicit conversions; a SIMT_INTEROP function that
 * extern.cu's own CUDA C++ kernel calls (and, on the host target, main.c's
 * C code, as do the other SIMT_INTEROP functions below); and a SIMT kernel
 * that extern.cu launches with cudaLaunchKernel.  main.c checks the results
 * against float64 references.
 * nvcc-spills: allowed in solo_warp */
#include <tilec.h>

/* softplus(x) = log(1 + e^x), written once in the user's CUDA C++. */
TILE_EXTERN float softplus(float x);
/* a * x + b with an integer a: three arguments of two types. */
TILE_EXTERN double affine(int32_t a, double x, double b);
/* Collatz steps below 1000 of n: integer code that has no tile form. */
TILE_EXTERN int32_t collatz_steps(int64_t n);

TILE_KERNEL void apply(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const int32_t, 1) a, TILE_ARRAY(float, 2) y,
                       TILE_ARRAY(double, 2) z, TILE_ARRAY(int32_t, 1) steps, double b)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
    int32_t av = tile_load(a, .index = {0}, .shape = {32}, .padding = TILE_PAD_ZERO);
    tile_store(y, softplus(t) * 2.0f, .index = {i, 0});
    /* a (32,) row broadcast over the (16, 32) tile; the float tile converts to double */
    tile_store(z, affine(av, t, b), .index = {i, 0});
    int64_t n = tile_arange(int64_t, .shape = {16}) + (int64_t)i * 16 + 1;
    tile_store(steps, collatz_steps(n), .index = {i});
}

/* table[i], with i clamped into the table: a device function for CUDA C++
 * callers (extern.cu's cxx_gather), a C function on the host target. */
SIMT_INTEROP SIMT_FUNC float table_at(TILE_ARRAY(const float, 1) table, int64_t i)
{
    int64_t n = simt_shape(table, 0);
    return table[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* out[i] = 3 * table_at(table, i - 2): launched by its launcher, and by
 * cudaLaunchKernel from CUDA C++ through tilec_kernel_shifted(). */
SIMT_KERNEL void shifted(TILE_ARRAY(const float, 1) table, TILE_ARRAY(float, 1) out)
{
    int64_t i = simt_tid(0);
    if (i < simt_shape(out, 0))
        out[i] = 3.0f * table_at(table, i - 2);
}

/* The SIMT builtins as one thread sees them when C calls these on the host
 * (thread 0 of block 0 of a 1 x 1 x 1 grid, lane 0 of a one-lane warp):
 * solo_block writes the positions, sizes and barriers' results to
 * probe[0 ...], solo_warp the warp collectives' to probe[4 ...] and adds v to
 * probe[15] atomically; each returns the next free entry. */
SIMT_INTEROP SIMT_FUNC int solo_block(TILE_ARRAY(int32_t, 1) probe, int v)
{
    probe[0] = simt_thread_idx(0) + simt_thread_idx(1) + simt_thread_idx(2) + simt_block_idx(0) + simt_block_idx(1) +
               simt_block_idx(2) + simt_tid(0) + simt_lane_id();
    probe[1] = simt_block_dim(0) * simt_block_dim(1) * simt_block_dim(2) * simt_grid_dim(0) * simt_grid_dim(1) *
               simt_grid_dim(2) * simt_grid_size(0);
    probe[2] = simt_syncthreads_count(v > 0);
    probe[3] = simt_syncthreads_and(v > 0) * 10 + simt_syncthreads_or(v > 0);
    simt_syncthreads();
    return 4;
}

SIMT_INTEROP SIMT_FUNC int solo_warp(TILE_ARRAY(int32_t, 1) probe, int v)
{
    simt_syncwarp(0xffffffffu);
    probe[4] = (int)simt_ballot_sync(0xffffffffu, v > 0);
    probe[5] = simt_all_sync(0xffffffffu, v > 0) * 10 + simt_any_sync(0xffffffffu, v > 0);
    probe[6] = simt_shfl_down_sync(0xffffffffu, v, 1) + simt_shfl_xor_sync(0xffffffffu, v, 3);
    probe[7] = simt_shfl_sync(0xffffffffu, v, 0);
    probe[8] = (int)simt_activemask() * 10 + (int)simt_lanemask_lt();
    probe[9] = (int)simt_match_any_sync(0xffffffffu, v);
    simt_threadfence();
    probe[10] = simt_atomic_add(&probe[15], v, .memory_order = TILE_SEQ_CST);
    return 11;
}

/* acc[0] += v atomically; the old value (C calls it from several threads). */
SIMT_INTEROP SIMT_FUNC int64_t solo_add(TILE_ARRAY(int64_t, 1) acc, int64_t v)
{
    return simt_atomic_add(&acc[0], v);
}

/* No parameters and no result, a barrier alone: from C on the host it
 * returns at once (the exported form of `void f(void)`). */
SIMT_INTEROP SIMT_FUNC void solo_barrier(void)
{
    simt_syncthreads();
}
