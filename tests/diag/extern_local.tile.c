/* extern local: an extern declaration inside a kernel: one error, no second one at its use. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    extern int g;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {g});
}
// expect: tests/diag/extern_local.tile.c:5:16: error: 'g': static and extern variables are not allowed in tile code
