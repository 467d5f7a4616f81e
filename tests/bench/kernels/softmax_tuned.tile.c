/* softmax_tuned.tile.c: softmax.tile.c's fast-exponential row softmax with
 * the launcher choosing, from the tuning table (--tuning), how many rows a
 * block takes (BM) and how many CUDA threads it runs (TILE_THREADS); BN is
 * still the caller's (the row length the kernel is compiled for).  The
 * first listed values are the untuned default: one row on 256 threads, the
 * plan tilec picks for softmax.tile.c.  Variants that spill (two rows on
 * 128 threads) are compiled, and pruned by the tuning program.
 * nvcc-spills: allowed */
#include <tilec.h>

TILE_KERNEL void softmax_f32_tuned(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 4096) BN,
                                   TILE_TUNABLE(int, 1, 2) BM, TILE_THREADS(256, 128, 512, 1024) threads)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {BM, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, e * r, .index = {i, 0});
}

/* float16 in and out, float32 inside. */
TILE_KERNEL void softmax_f16_tuned(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y,
                                   TILE_CONST(int, 8192) BN, TILE_TUNABLE(int, 1, 2) BM,
                                   TILE_THREADS(256, 128, 512, 1024) threads)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {BM, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, tile_cast(e * r, _Float16), .index = {i, 0});
}
