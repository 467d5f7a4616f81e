/* incdec in expr: '++' inside an expression is rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = 0;
    int j = i++ + 1;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {j});
}
// expect: tests/diag/incdec_in_expr.tile.c:6:13: error: '++' and '--' are only allowed as statements in tile code
// expect: tests/diag/incdec_in_expr.tile.c:6:13: note: fix: write the increment as its own statement
