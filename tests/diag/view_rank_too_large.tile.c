/* view rank too large: a view of rank 9: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 9) v = tile_view_transpose(x);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_rank_too_large.tile.c:5:31: error: view 'v' has rank 9; ranks 1 to 8 are supported
// expect:     5 |     TILE_VIEW(const float, 9) v = tile_view_transpose(x);
// expect:       |                               ^
// expect-no-other-errors
