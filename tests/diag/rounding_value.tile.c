/* rounding value: .rounding must be one of the TILE_R* modes. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, tile_cast(t, float, .rounding = 9), .index = {0});
}
// expect: tests/diag/rounding_value.tile.c:6:40: error: .rounding must be one of TILE_RN, TILE_RZ, TILE_RM, TILE_RP, TILE_FULL, TILE_APPROX, TILE_RZI
