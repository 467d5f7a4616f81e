/* rzi on math: TILE_RZI applies to casts only. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, tile_sqrt(t, .rounding = TILE_RZI), .index = {0});
}
// expect: tests/diag/rzi_on_math.tile.c:6:33: error: TILE_RZI applies to casts only
