/* transposes.tile.c: transposes and permutes that go through shared memory
 * on the GPU, for 4-, 2- and 1-byte elements.  Their mirrors are swizzled so
 * that neither the writes (in the threads' own order) nor the transposed
 * reads meet bank conflicts (codegen/kernel.c: mirror_swizzle); the values
 * must be those of the plain index maps.  Arrays are not multiples of the
 * tiles: edge blocks read padding and skip stores outside. */
#include <tilec.h>

/* y = x^T + 1 for (64, 64) float blocks, and z = 2 x in x's own order; a
 * 1-D grid, the block's row and column found with integer operators on the
 * block index and the array's extent */
TILE_KERNEL void tr_f32(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_ARRAY(float, 2) z)
{
    int nj = (int)((tile_dim(x, 1) + 63) >> 6);
    int i = tile_bid(0) / nj, j = tile_bid(0) % nj;
    float t = tile_load(x, .index = {i, j}, .shape = {64, 64});
    tile_store(y, tile_transpose(t) + 1.0f, .index = {j, i});
    tile_store(z, t * 2.0f, .index = {i, j});
}

/* y[c][a][b] = x[a][b][c] for (4, 32, 64) float16 blocks */
TILE_KERNEL void perm_f16(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(_Float16, 3) y)
{
    int i = tile_bid(0);
    _Float16 t = tile_load(x, .index = {i, 0, 0}, .shape = {4, 32, 64});
    tile_store(y, tile_permute(t, .axis = {2, 0, 1}), .index = {0, i, 0});
}

/* y = x^T for (64, 128) int8 blocks */
TILE_KERNEL void tr_i8(TILE_ARRAY(const int8_t, 2) x, TILE_ARRAY(int8_t, 2) y)
{
    int i = tile_bid(0), j = tile_bid(1);
    int8_t t = tile_load(x, .index = {i, j}, .shape = {64, 128});
    tile_store(y, tile_transpose(t), .index = {j, i});
}
