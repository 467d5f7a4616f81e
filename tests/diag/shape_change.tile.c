/* shape change: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    t = tile_zeros(float, .shape = {32});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/shape_change.tile.c:6:9: error: assignment would change the shape of 't' from (16,) to (32,); a variable keeps one shape
