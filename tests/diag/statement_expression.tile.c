/* statement expression: GNU statement expressions are rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int n = ({ 1; });
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/statement_expression.tile.c:5:13: error: statement expressions are not allowed in tile code
