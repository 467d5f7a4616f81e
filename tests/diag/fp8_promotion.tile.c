/* fp8 promotion: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const tilec_fp8_e4m3, 1) a, TILE_ARRAY(float, 1) c)
{
    tilec_fp8_e4m3 t = tile_load(a, .index = {0}, .shape = {16});
    float f = tile_zeros(float, .shape = {16});
    tile_store(c, t + f, .index = {0});
}
// expect: tests/diag/fp8_promotion.tile.c:7:19: error: cannot combine float8_e4m3fn with float32: float8_e4m3fn does not promote implicitly; cast with tile_cast(x, float)
