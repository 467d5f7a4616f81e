/* index count: .index with fewer entries than the array's rank names the
 * array and spells an .index of the right length. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    int i = tile_bid(0);
    float t = tile_load(a, .index = {i}, .shape = {4, 4});
    tile_store(c, t, .index = {0, 0});
}
// expect: tests/diag/index_count.tile.c:7:29: error: .index has 1 entry but array 'a' has rank 2
// expect: tests/diag/index_count.tile.c:7:29: note: fix: give one index per dimension of 'a': .index = {i, 0}
