/* store needs cast: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(_Float16, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/store_needs_cast.tile.c:6:19: error: cannot store a float32 tile into float16 array 'c' implicitly
