/* call arity: rejected. */
#include <tilec.h>
TILE_FUNC float add(float x, float y)
{
    return x + y;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, add(t), .index = {0});
}
// expect: tests/diag/call_arity.tile.c:10:24: error: too few arguments to function call, expected 2, have 1
