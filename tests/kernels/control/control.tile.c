/* control.tile.c: control flow on scalars and everything around it: for
 * loops with constant and run-time bounds that carry tiles, while loops,
 * if/else assigning tiles, break and continue, early return, nested loops,
 * tile functions calling tile functions (each call typed with its own
 * shapes), scalar parameters of several types (float16 too), and TILE_CONST
 * parameters with several listed values and a combination of two. */
#include <tilec.h>

TILE_FUNC float sq(float x) { return x * x; }
TILE_FUNC float poly(float x, float c) { return sq(x) + c * x + 1; }
TILE_FUNC int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return tile_minimum(tile_maximum(v, lo), hi); }

/* Row sums of a (M, K) matrix in 32-column chunks: a run-time trip count,
 * a (16, 32) tile carried through the loop; then a constant-bound loop. */
TILE_KERNEL void row_sums(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) s, TILE_ARRAY(float, 2) p)
{
    int i = tile_bid(0);
    float acc = tile_zeros(float, .shape = {16, 32});
    for (int64_t k = 0; k < (tile_dim(a, 1) + 31) / 32; k++)
        acc += tile_load(a, .index = {i, k}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
    tile_store(s, acc, .index = {i, 0});
    float q = tile_load(a, .index = {i, 0}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
    for (int r = 0; r < 3; r++) q = q * 0.5f + 1;
    tile_store(p, q, .index = {i, 0});
}

/* Scalar control flow: while, if/else, break, continue, nested loops,
 * early return; the result per block goes into one tile of o. */
TILE_KERNEL void scalar_flow(TILE_ARRAY(const int32_t, 1) x, TILE_ARRAY(int32_t, 1) o, int32_t limit, int64_t big,
                             uint8_t small, bool flag, int32_t active)
{
    int pid = tile_bid(0);
    if (pid >= active) return; /* blocks past `active` write nothing */
    int32_t v = tile_load(x, .index = {pid}, .shape = {32});
    int32_t acc = 0;
    for (int k = 0; k < 100; k++) {
        if (k == limit) break;
        if (k % 3 == 0) continue;
        acc += k;
    }
    int it = 0;
    int32_t w = v;
    while (it < (int32_t)small) {
        w = w * 2 - it;
        it++;
    }
    int32_t t = tile_zeros(int32_t, .shape = {32});
    if (pid % 2 == 0) {
        t = w + acc;
    } else if (flag) {
        t = w - acc;
    } else {
        t = -w;
    }
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) t += a * b;
    int64_t shift = big >> 40;
    tile_store(o, t + (int32_t)shift + (flag ? 1 : 2), .index = {pid});
}

/* Tile functions on tiles of different shapes and on scalars. */
TILE_KERNEL void funcs(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, TILE_ARRAY(float, 2) z,
                       TILE_ARRAY(int32_t, 1) c, float alpha, double beta)
{
    int pid = tile_bid(0);
    float v = tile_load(x, .index = {pid}, .shape = {64}, .padding = TILE_PAD_ZERO);
    float s = poly(alpha, 2.0f); /* a scalar */
    tile_store(y, poly(v, alpha) + s + (float)beta, .index = {pid});
    float m = tile_expand_dims(tile_arange(float, .shape = {4}), .axis = 1) + tile_arange(float, .shape = {8});
    tile_store(z, sq(poly(m, 0.5f)), .index = {pid, 0});
    tile_store(c, clampi(tile_arange(int32_t, .shape = {64}) - 20, 0, 30), .index = {pid});
}

/* A float16 scalar parameter (passed as float, rounded to float16). */
TILE_KERNEL void half_param(TILE_ARRAY(const _Float16, 1) x, TILE_ARRAY(_Float16, 1) y, _Float16 h)
{
    int pid = tile_bid(0);
    _Float16 v = tile_load(x, .index = {pid}, .shape = {64});
    tile_store(y, v * h + h, .index = {pid});
}

/* TILE_CONST: BS picks the tile size, REPS a compile-time trip count; the
 * launcher dispatches on both and refuses an unlisted value. */
TILE_KERNEL void consts(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, TILE_CONST(int, 16, 32, 64) BS,
                        TILE_CONST(int, 1, 3) REPS)
{
    int pid = tile_bid(0);
    float v = tile_load(x, .index = {pid}, .shape = {BS}, .padding = TILE_PAD_ZERO);
    for (int r = 0; r < REPS; r++) v = v + BS;
    tile_store(y, v, .index = {pid});
}
