/* rank mismatch: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4, 4});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/rank_mismatch.tile.c:5:43: error: tile shape has rank 2 but array 'a' has rank 1
