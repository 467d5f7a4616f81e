/* unknown builtin: a tile_ name that is not close to any builtin (tile_mean
 * is not tile_max) says so, without a cascade from its options. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, tile_mean(x, .axis = 0), .index = {0});
}
// expect: tests/diag/unknown_builtin.tile.c:7:19: error: use of undeclared identifier 'tile_mean' (tilec.h declares no such name)
// expect-no-other-errors
