/* func return type: a float32 value returned from an int32 tile function. */
#include <tilec.h>
TILE_FUNC int32_t half(float x)
{
    return x / 2;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(int32_t, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    int32_t r = half(t);
    tile_store(c, r, .index = {0});
}
// expect: tests/diag/func_return_type.tile.c:5:12: error: 'half' returns int32 but the value is float32
// expect: tests/diag/func_return_type.tile.c:5:12: note: fix: convert explicitly: tile_cast(value, int32_t)
// expect: tests/diag/func_return_type.tile.c:10:17: note: in the call of tile function 'half' here
