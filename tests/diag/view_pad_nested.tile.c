/* view pad nested: tile_view_pad of a nested (im2col) axis: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 3) x, TILE_ARRAY(float, 3) y)
{
    TILE_VIEW(const float, 3) c = tile_view_im2col(x, .size = {3});
    TILE_VIEW(const float, 3) v = tile_view_pad(c, .low = {0, 1, 0});
    tile_store(y, tile_load(v, .index = {0, 0, 0}, .shape = {1, 4, 4}), .index = {0, 0, 0});
}
// expect: tests/diag/view_pad_nested.tile.c:6:35: error: tile_view_pad: axis 1 of the view is nested (2 sub-modes); padding applies to flat axes only
// expect:     6 |     TILE_VIEW(const float, 3) v = tile_view_pad(c, .low = {0, 1, 0});
// expect:       |                                   ^~~~~~~~~~~~~
// expect-no-other-errors
