/* non pow2 shape: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {48});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/non_pow2_shape.tile.c:5:52: error: tile dimension 48 is not a power of two (tile_load, .shape entry 0)
