/* view window axis: tile_view_window of an axis the source does not have: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {3}, .window_axes = {2});
    tile_store(y, tile_reshape(tile_load(v, .index = {0, 0, 0}, .shape = {4, 4, 1}), .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_window_axis.tile.c:5:35: error: tile_view_window: window axis 2 is not an axis of a rank-2 view
// expect:     5 |     TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {3}, .window_axes = {2});
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect-no-other-errors
