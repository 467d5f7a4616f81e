/* misspelt array annotation: the parameter list is lost with it, and every
 * name the body uses would be undeclared; those errors are only counted. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, x, .index = {0});
}
// expect: tests/diag/misspelt_array_annotation.tile.c:4:20: error: unknown type name 'TILE_ARRY'; did you mean 'TILE_ARRAY'?
// expect: tests/diag/misspelt_array_annotation.tile.c: note: 5 more errors not shown: fix this one first
// expect-no-other-errors
