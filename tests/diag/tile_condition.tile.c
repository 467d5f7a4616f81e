/* tile condition: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    if (t > 0) tile_store(c, t, .index = {0});
}
// expect: tests/diag/tile_condition.tile.c:6:9: error: the condition of an if statement must be a scalar, not a tile of shape (16,)
