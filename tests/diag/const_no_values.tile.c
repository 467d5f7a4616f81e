/* const no values: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_CONST(int) B)
{
    tile_store(c, tile_zeros(float, .shape = {B}), .index = {0});
}
// expect: tests/diag/const_no_values.tile.c:3:60: error: constant parameter 'B' lists no values
