/* sizeof: sizeof is rejected: shapes are written as constants. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int n = sizeof(float);
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/sizeof.tile.c:5:13: error: sizeof and _Alignof are not allowed in tile code
// expect: tests/diag/sizeof.tile.c:5:13: note: fix: tile shapes are static: write the size as a constant
