/* store rank: storing a 1-d tile into a 2-d array without .shape. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t, .index = {0, 0});
}
// expect: tests/diag/store_rank.tile.c:6:19: error: storing a tile of shape (16,) into array 'c' of rank 2
// expect: tests/diag/store_rank.tile.c:6:19: note: fix: give .shape with one entry per array dimension
