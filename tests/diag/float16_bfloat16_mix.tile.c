/* float16 bfloat16 mix: float16 with bfloat16 does not promote. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const _Float16, 1) a, TILE_ARRAY(const __bf16, 1) b, TILE_ARRAY(float, 1) c)
{
    _Float16 x = tile_load(a, .index = {0}, .shape = {16});
    __bf16 y = tile_load(b, .index = {0}, .shape = {16});
    float z = tile_cast(x, float) + tile_cast(y, float);
    tile_store(c, z + x * y, .index = {0});
}
// expect: tests/diag/float16_bfloat16_mix.tile.c:8:23: error: cannot mix float16 and bfloat16: cast one operand, e.g. tile_cast(x, float)
