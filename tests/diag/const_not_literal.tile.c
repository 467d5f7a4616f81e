/* const not literal: rejected. */
#include <tilec.h>
#define BIG 64
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_CONST(int, BIG) B)
{
    tile_store(c, tile_zeros(float, .shape = {B}), .index = {0});
}
// expect: tests/diag/const_not_literal.tile.c:4:65: error: constant parameter 'B': 'BIG' is not an integer literal
