/* batchnorm.tile.c: batch normalisation over (N, C) (seed 000's batch-norm
 * broadcasting): per-channel statistics computed in one kernel with column
 * reductions, then applied with per-column vectors broadcast over rows. */
#include <tilec.h>

/* mean[c] and inv_std[c] of x over all N rows, for 32 channels per block. */
TILE_KERNEL void bn_stats(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 1) mean, TILE_ARRAY(float, 1) inv_std,
                          float eps)
{
    int j = tile_bid(0);
    float n = tile_dim(x, 0);
    float sum = tile_zeros(float, .shape = {32});
    float sq = tile_zeros(float, .shape = {32});
    for (int64_t r = 0; r < (tile_dim(x, 0) + 63) / 64; r++) {
        float t = tile_load(x, .index = {r, j}, .shape = {64, 32}, .padding = TILE_PAD_ZERO);
        sum += tile_sum(t, .axis = 0);
        sq += tile_sum(t * t, .axis = 0);
    }
    float m = sum / n;
    tile_store(mean, m, .index = {j});
    tile_store(inv_std, tile_rsqrt(sq / n - m * m + eps), .index = {j});
}

/* y = (x - mean) * inv_std * gamma + beta, per-column vectors broadcast. */
TILE_KERNEL void bn_apply(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const float, 1) mean,
                          TILE_ARRAY(const float, 1) inv_std, TILE_ARRAY(const float, 1) gamma,
                          TILE_ARRAY(const float, 1) beta, TILE_ARRAY(float, 2) y)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(x, .index = {i, j}, .shape = {16, 32});
    float m = tile_load(mean, .index = {j}, .shape = {32});
    float s = tile_load(inv_std, .index = {j}, .shape = {32});
    float g = tile_load(gamma, .index = {j}, .shape = {32});
    float b = tile_load(beta, .index = {j}, .shape = {32});
    tile_store(y, (t - m) * s * g + b, .index = {i, j});
}
