/* tfloat32 arithmetic: arithmetic on two tf32 tiles: cast, then compute. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const tilec_tf32, 1) a, TILE_ARRAY(tilec_tf32, 1) c)
{
    tilec_tf32 t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t * t, .index = {0});
}
// expect: tests/diag/tfloat32_arithmetic.tile.c:6:19: error: arithmetic on tfloat32 operands is not supported: only tile_cast and tile_mma accept tfloat32; cast with tile_cast(x, float)
