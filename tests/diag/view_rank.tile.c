/* view rank: a view declared with a rank other than its constructor's: rejected, with the right declaration as fix. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 3) x, TILE_ARRAY(float, 3) y)
{
    TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {3});
    tile_store(y, tile_load(v, .index = {0, 0, 0}, .shape = {1, 4, 4}), .index = {0, 0, 0});
}
// expect: tests/diag/view_rank.tile.c:5:31: error: view 'v' is declared with rank 3, but tile_view_window gives a view of rank 4
// expect:     5 |     TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {3});
// expect:       |                               ^
// expect: tests/diag/view_rank.tile.c:5:31: note: fix: declare it TILE_VIEW(const float, 4)
// expect-no-other-errors
