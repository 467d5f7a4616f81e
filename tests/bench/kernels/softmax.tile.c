/* softmax.tile.c: row softmax, one row of N <= BN elements per block
 * (padding -inf), float32 inside.  The plain kernels use the fast
 * exponential and one reciprocal per row, as Triton's tutorial kernel does;
 * the _exact ones use the correctly rounded exponential and divide. */
#include <tilec.h>

TILE_KERNEL void softmax_f32(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, e * r, .index = {i, 0});
}

TILE_KERNEL void softmax_f32_exact(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true));
    tile_store(y, e / tile_sum(e, .axis = 1, .keepdims = true), .index = {i, 0});
}

/* float16 in and out, float32 inside. */
TILE_KERNEL void softmax_f16(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 8192) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, tile_cast(e * r, _Float16), .index = {i, 0});
}

TILE_KERNEL void softmax_f16_exact(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 8192) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true));
    tile_store(y, tile_cast(e / tile_sum(e, .axis = 1, .keepdims = true), _Float16), .index = {i, 0});
}
