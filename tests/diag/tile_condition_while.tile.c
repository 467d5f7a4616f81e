/* tile condition while: a while condition that is a tile. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    while (t < 1) t = t + 1;
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/tile_condition_while.tile.c:6:12: error: the condition of a while loop must be a scalar, not a tile of shape (4,)
// expect: tests/diag/tile_condition_while.tile.c:6:12: note: fix: select element-wise with tile_where(cond, a, b) or cond ? a : b
