/* const not literal: a macro is expanded first, and what it expands to
 * must be integer literals. */
#include <tilec.h>
#define BIG (2 * 32)
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_CONST(int, BIG) B)
{
    tile_store(c, tile_zeros(float, .shape = {B}), .index = {0});
}
// expect: tests/diag/const_not_literal.tile.c:5:65: error: constant parameter 'B': '(2 * 32)' is not an integer literal
