/* misspelt builtin: the nearest of tilec.h's names is suggested, and the
 * options, which are no C expressions without the macro, add no errors. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = tile_bid(0);
    float x = tile_laod(a, .index = {i},
                        .shape = {128});
    tile_store(c, tile_sums(x, .axis = 0, .keepdims = true), .index = {i});
}
// expect: tests/diag/misspelt_builtin.tile.c:7:15: error: use of undeclared identifier 'tile_laod'; did you mean 'tile_load'?
// expect: tests/diag/misspelt_builtin.tile.c:9:19: error: use of undeclared identifier 'tile_sums'; did you mean 'tile_sum'?
// expect-no-other-errors
