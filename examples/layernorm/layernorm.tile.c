/* layernorm.tile.c: layer norm over the rows of a float16 matrix, with
 * float16 weight and bias and float32 statistics, as torch computes it
 * (mean, then the biased variance of the centred values):
 *
 *   y[i, j] = (x[i, j] - mean_i) / sqrt(var_i + eps) * w[j] + b[j]
 *
 * layer_norm_row: the whole row in one tile (N <= BN), read once.
 * layer_norm_long: rows of any length in BN-wide tiles: one pass for the
 * mean, one for the variance of the centred values (more accurate than
 * E[x^2] - mean^2, which cancels when |mean| >> std), one to write. */
#include <tilec.h>

TILE_KERNEL void layer_norm_row(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                TILE_CONST(int, 1024, 4096) BN)
{
    int i = tile_bid(0);
    float n = tile_dim(x, 1);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
    float mean = tile_sum(t, .axis = 1, .keepdims = true) / n;
    /* the padding must not count in the variance: it is 0, not the mean */
    float d = tile_where(tile_arange(int32_t, .shape = {BN}) < tile_dim(x, 1), t - mean, 0.0f);
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) / n;
    float wt = tile_load(w, .index = {0}, .shape = {BN}, .padding = TILE_PAD_ZERO);
    float bt = tile_load(b, .index = {0}, .shape = {BN}, .padding = TILE_PAD_ZERO);
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}

TILE_KERNEL void layer_norm_long(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                 TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                 TILE_CONST(int, 1024) BN)
{
    int i = tile_bid(0);
    float n = tile_dim(x, 1);
    int64_t nt = (tile_dim(x, 1) + BN - 1) / BN;
    float sum = tile_zeros(float, .shape = {1, 1});
    for (int64_t j = 0; j < nt; j++) {
        /* loaded as float: tile_sum of a float16 tile would round its
         * result to float16 (it accumulates in float32, as cuTile's does) */
        float t = tile_load(x, .index = {i, j}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
        sum += tile_sum(t, .axis = 1, .keepdims = true);
    }
    float mean = sum / n;
    float sq = tile_zeros(float, .shape = {1, 1});
    for (int64_t j = 0; j < nt; j++) {
        float t = tile_load(x, .index = {i, j}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
        float d = tile_where(tile_arange(int64_t, .shape = {BN}) + j * BN < tile_dim(x, 1), t - mean, 0.0f);
        sq += tile_sum(d * d, .axis = 1, .keepdims = true);
    }
    float r = tile_rsqrt(sq / n + eps);
    for (int64_t j = 0; j < nt; j++) {
        float t = tile_load(x, .index = {i, j}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
        float wt = tile_load(w, .index = {j}, .shape = {BN}, .padding = TILE_PAD_ZERO);
        float bt = tile_load(b, .index = {j}, .shape = {BN}, .padding = TILE_PAD_ZERO);
        tile_store(y, tile_cast((t - mean) * r * wt + bt, _Float16), .index = {i, j});
    }
}
