/* reductions.tile.c: every reduction, on the register/shuffle path (trailing
 * axes) and the shared-memory path (leading axes), with and without keepdims. */
#include <tilec.h>

/* Row softmax of a (M, N) float32 matrix, BM rows per block; N <= 1024. */
TILE_KERNEL void softmax_rows(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 1, 4) BM)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {BM, 1024}, .padding = TILE_PAD_NEG_INF);
    float m = tile_max(t, .axis = 1, .keepdims = true);
    float e = tile_exp(t - m);
    float s = tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, e / s, .index = {i, 0});
}

/* Per-column statistics of a (64, N) block of rows: sum, max, argmin, and
 * whether any element is negative (leading-axis reductions). */
TILE_KERNEL void column_stats(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 1) sum, TILE_ARRAY(float, 1) max,
                              TILE_ARRAY(int32_t, 1) argmin, TILE_ARRAY(bool, 1) anyneg)
{
    int j = tile_bid(0);
    float t = tile_load(x, .index = {0, j}, .shape = {64, 32}, .padding = TILE_PAD_NAN);
    tile_store(sum, tile_sum(t, .axis = 0), .index = {j});
    tile_store(max, tile_max(t, .axis = 0), .index = {j});
    tile_store(argmin, tile_argmin(t, .axis = 0), .index = {j});
    tile_store(anyneg, tile_any(t < 0, .axis = 0), .index = {j});
}

/* Whole-tile reductions of int16 data into per-block results: the sum widens
 * to int32; prod, min and all over the same tile. */
TILE_KERNEL void block_totals(TILE_ARRAY(const int16_t, 1) x, TILE_ARRAY(int32_t, 1) sum, TILE_ARRAY(int32_t, 1) prod,
                              TILE_ARRAY(int16_t, 1) min, TILE_ARRAY(bool, 1) allpos, TILE_ARRAY(int32_t, 1) argmax)
{
    int b = tile_bid(0);
    int16_t t = tile_load(x, .index = {b}, .shape = {2048}, .padding = TILE_PAD_ZERO);
    int16_t small = tile_load(x, .index = {b}, .shape = {8}, .padding = TILE_PAD_ZERO);
    tile_store(sum, tile_reshape(tile_sum(tile_expand_dims(t, .axis = 0), .keepdims = true), .shape = {1}), .index = {b});
    tile_store(prod, tile_reshape(tile_prod(small), .shape = {1}), .index = {b});
    tile_store(min, tile_reshape(tile_min(t), .shape = {1}), .index = {b});
    tile_store(allpos, tile_reshape(tile_all(t > 0), .shape = {1}), .index = {b});
    tile_store(argmax, tile_reshape(tile_argmax(t), .shape = {1}), .index = {b});
}

/* Layer norm over rows of a float16 (M, N) matrix with weight and bias;
 * statistics accumulate in float32. */
TILE_KERNEL void layer_norm(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                            TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps)
{
    int i = tile_bid(0);
    float t = (float)tile_load(x, .index = {i, 0}, .shape = {1, 512}, .padding = TILE_PAD_ZERO);
    float n = tile_dim(x, 1);
    float mean = tile_sum(t, .axis = 1, .keepdims = true) / n;
    float col = tile_arange(float, .shape = {512});
    float d = tile_where(col < n, t - mean, 0.0f);
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) / n;
    float wt = tile_load(w, .index = {0}, .shape = {512}, .padding = TILE_PAD_ZERO);
    float bt = tile_load(b, .index = {0}, .shape = {512}, .padding = TILE_PAD_ZERO);
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}

/* Transposes a (32, 64) tile through shared memory and back: shape ops. */
TILE_KERNEL void transpose(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(x, .index = {i, j}, .shape = {32, 64});
    tile_store(y, tile_transpose(t), .index = {j, i});
}
