/* include not found: the missing header is the error; the names it would
 * have declared are not reported one by one. */
#include <tilec.h>
#include "no_such_sizes.h"
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {BLOCK}), .index = {0});
}
// expect: tests/diag/include_not_found.tile.c:4:10: error: 'no_such_sizes.h' file not found
// expect: tests/diag/include_not_found.tile.c: note: 1 more error not shown: fix this one first
// expect-no-other-errors
