/* func argument type: a float32 tile passed to an int32 parameter. */
#include <tilec.h>
TILE_FUNC int32_t twice(int32_t x)
{
    return x * 2;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(int32_t, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    int32_t r = twice(t);
    tile_store(c, r, .index = {0});
}
// expect: tests/diag/func_argument_type.tile.c:10:23: error: argument 1 of 'twice' is float32; parameter 'x' is int32
// expect: tests/diag/func_argument_type.tile.c:10:23: note: fix: convert explicitly: tile_cast(arg, int32_t)
