/* function as value: a tile function used as a value (no function pointers). */
#include <tilec.h>
TILE_FUNC float id(float x) { return x; }
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    bool b = id != 0;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {b});
}
// expect: tests/diag/function_as_value.tile.c:6:14: error: function 'id' used as a value; tile code has no function pointers
