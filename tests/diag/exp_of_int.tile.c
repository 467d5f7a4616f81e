/* exp of int: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const int32_t, 1) a, TILE_ARRAY(float, 1) c)
{
    int32_t t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, tile_exp(t), .index = {0});
}
// expect: tests/diag/exp_of_int.tile.c:6:28: error: tile_exp needs a float16, bfloat16, float32 or float64 tile, not int32
