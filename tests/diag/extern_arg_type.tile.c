/* Arguments of TILE_EXTERN functions convert implicitly, as a tile function's do. */
#include <tilec.h>
TILE_EXTERN int32_t count(int32_t x);
TILE_KERNEL void k(TILE_ARRAY(int32_t, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    tile_store(c, count(x), .index = {0});
}
// expect: tests/diag/extern_arg_type.tile.c:7:25: error: argument 1 of 'count' is float32; parameter 'x' is int32
