/* non tile call: rejected. */
#include <tilec.h>
static float helper(float x) { return x; }
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, helper(t), .index = {0});
}
// expect: tests/diag/non_tile_call.tile.c:7:19: error: call to 'helper', which is not a tile function
