/* bool arithmetic: arithmetic on two bool tiles. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    bool p = t > 0;
    bool q = t < 1;
    tile_store(c, tile_where(p + q, t, 0.0f), .index = {0});
}
// expect: tests/diag/bool_arithmetic.tile.c:8:30: error: arithmetic on bool operands is not supported: cast one operand, e.g. tile_cast(x, int32_t)
