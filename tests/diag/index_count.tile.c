/* index count: .index with fewer entries than the array's rank. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4, 4});
    tile_store(c, t, .index = {0, 0});
}
// expect: tests/diag/index_count.tile.c:5:29: error: .index has 1 entries but the array has rank 2
