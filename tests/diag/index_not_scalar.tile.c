/* index not scalar: tile_load's .index takes scalars, not tiles. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int32_t r = tile_arange(int32_t, .shape = {4});
    float t = tile_load(a, .index = {r}, .shape = {4});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/index_not_scalar.tile.c:6:38: error: a tile index must be a scalar, not a tile of shape (4,)
