/* tile2d.tile.c: 2-D tiles (seed 000, multi-dimensional tiles): each block
 * scales a 16x32 tile of a matrix; the grid covers the matrix in tile space,
 * partial tiles at the edges are masked. */
#include <tilec.h>

/* b = 2*a + 1 over (16, 32) tiles. */
TILE_KERNEL void scale2d(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) b)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(a, .index = {i, j}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
    tile_store(b, 2.0f * t + 1.0f, .index = {i, j});
}

/* b = a^T through a transposed load (.order): tile axis 0 runs along a's axis 1. */
TILE_KERNEL void transpose2d(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) b)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(a, .index = {i, j}, .shape = {16, 32}, .order = {1, 0});
    tile_store(b, t, .index = {i, j});
}
