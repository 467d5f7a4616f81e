/* validation.tile.c: kernels whose launchers the application feeds bad
 * arguments: NULL descriptors, wrong ranks and dtypes, negative extents and
 * strides, NULL or misaligned data, outputs that alias inputs or each other,
 * broadcast (stride 0) outputs, bad grids, unlisted constants; and the
 * accepted cases: the identical view in place for element-wise work, and
 * empty arrays (no launch). */
#include <tilec.h>

/* Element-wise: y = 2 x + y (y read and written by the same block). */
TILE_KERNEL void axpy(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y)
{
    int pid = tile_bid(0);
    float a = tile_load(x, .index = {pid}, .shape = {64});
    float b = tile_load(y, .index = {pid}, .shape = {64});
    tile_store(y, 2 * a + b, .index = {pid});
}

/* Two outputs. */
TILE_KERNEL void two_out(TILE_ARRAY(const int32_t, 2) x, TILE_ARRAY(int32_t, 2) y, TILE_ARRAY(int32_t, 2) z)
{
    int i = tile_bid(0), j = tile_bid(1);
    int32_t t = tile_load(x, .index = {i, j}, .shape = {8, 8});
    tile_store(y, t + 1, .index = {i, j});
    tile_store(z, t - 1, .index = {i, j});
}

/* Block pid reads tile pid + 1: in place would race, so the same view must
 * be refused. */
TILE_KERNEL void shift_left(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y)
{
    int pid = tile_bid(0);
    tile_store(y, tile_load(x, .index = {pid + 1}, .shape = {64}, .padding = TILE_PAD_ZERO), .index = {pid});
}

/* A transpose reads what other blocks write. */
TILE_KERNEL void transpose(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) b, TILE_CONST(int, 8, 16) T)
{
    int i = tile_bid(0), j = tile_bid(1);
    tile_store(b, tile_load(a, .index = {i, j}, .shape = {T, T}, .order = {1, 0}), .index = {i, j});
}
