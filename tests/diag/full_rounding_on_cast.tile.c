/* full rounding on cast: TILE_FULL applies to math functions, not casts. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    _Float16 h = tile_cast(t, _Float16, .rounding = TILE_FULL);
    tile_store(c, tile_cast(h, float), .index = {0});
}
// expect: tests/diag/full_rounding_on_cast.tile.c:6:42: error: TILE_FULL and TILE_APPROX apply to math functions, not casts
