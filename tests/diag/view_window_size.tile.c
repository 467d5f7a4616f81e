/* view window size: tile_view_window with a window of size 0: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {0});
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_window_size.tile.c:5:35: error: tile_view_window: window of axis 1: size 0, stride 1, dilation 1 must be positive and the padding (0, 0) not negative
// expect:     5 |     TILE_VIEW(const float, 3) v = tile_view_window(x, .size = {0});
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect-no-other-errors
