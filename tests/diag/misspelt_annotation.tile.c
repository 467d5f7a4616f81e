/* misspelt annotation: TILE_KERNAL is one edit from TILE_KERNEL. */
#include <tilec.h>
TILE_KERNAL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {16}), .index = {0});
}
// expect: tests/diag/misspelt_annotation.tile.c:3:1: error: unknown type name 'TILE_KERNAL'; did you mean 'TILE_KERNEL'?
// expect-no-other-errors
