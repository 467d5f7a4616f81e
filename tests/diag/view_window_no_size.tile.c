/* view window no size: tile_view_window without .size: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 3) v = tile_view_window(x);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_window_no_size.tile.c:5:35: error: tile_view_window needs .size
// expect:     5 |     TILE_VIEW(const float, 3) v = tile_view_window(x);
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect: tests/diag/view_window_no_size.tile.c:5:35: note: fix: give the window's extent per windowed axis: .size = {...}
// expect-no-other-errors
