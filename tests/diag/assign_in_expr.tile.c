/* assign in expr: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = 0;
    int j = (i = 2) + 1;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {j});
}
// expect: tests/diag/assign_in_expr.tile.c:6:14: error: assignment inside an expression is not allowed in tile code
