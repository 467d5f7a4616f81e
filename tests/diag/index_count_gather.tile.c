/* index count of a gather: one index tile per dimension of the array. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 1) c)
{
    int32_t r = tile_arange(int32_t, .shape = {16});
    float t = tile_gather(a, .index = {r, r + 1, 3});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/index_count_gather.tile.c:6:31: error: .index has 3 entries but array 'a' has rank 2
// expect: tests/diag/index_count_gather.tile.c:6:31: note: fix: give one index per dimension of 'a': .index = {r, ...}
