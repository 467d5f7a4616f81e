/* incompatible broadcast: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 2) c)
{
    float x = tile_load(a, .index = {0, 0}, .shape = {16, 8});
    float y = tile_load(b, .index = {0}, .shape = {4});
    tile_store(c, x + y, .index = {0, 0});
}
// expect: tests/diag/incompatible_broadcast.tile.c:7:19: error: shapes (16,8) and (4,) cannot be broadcast: dimension 1 is 8 vs 4
