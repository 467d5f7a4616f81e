/* const float type: TILE_CONST needs an integer type. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_CONST(float, 16) B)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/const_float_type.tile.c:3:66: error: constant parameter 'B' must have an integer type, not 'float'
