/* full value not scalar: tile_full's value must be a scalar. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, tile_full(float, t, .shape = {4}), .index = {0});
}
// expect: tests/diag/full_value_not_scalar.tile.c:6:36: error: the value of tile_full must be a scalar
