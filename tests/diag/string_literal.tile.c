/* string literal: string literals are rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    bool b = "yes";
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {b});
}
// expect: tests/diag/string_literal.tile.c:5:14: error: string literals are not allowed in tile code
