/* narrowing assign: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    int32_t n = tile_zeros(int32_t, .shape = {16});
    n = t;
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/narrowing_assign.tile.c:7:9: error: cannot assign a float32 value to int32 variable 'n' implicitly
