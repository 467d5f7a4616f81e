/* tf32 promotion: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const tilec_tf32, 1) a, TILE_ARRAY(float, 1) c)
{
    tilec_tf32 t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t * 2.0f, .index = {0});
}
// expect: tests/diag/tf32_promotion.tile.c:6:19: error: cannot combine tfloat32 with float_const: tfloat32 does not promote implicitly; cast with tile_cast(x, float)
