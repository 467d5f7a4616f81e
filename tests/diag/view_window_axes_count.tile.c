/* view window axes count: .window_axes and .size of different lengths: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 4) v = tile_view_window(x, .size = {2, 2}, .window_axes = {0});
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_window_axes_count.tile.c:5:35: error: .window_axes lists 1 axis but .size lists 2 windows
// expect:     5 |     TILE_VIEW(const float, 4) v = tile_view_window(x, .size = {2, 2}, .window_axes = {0});
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect: tests/diag/view_window_axes_count.tile.c:5:35: note: fix: give one axis in .window_axes per .size entry
// expect-no-other-errors
