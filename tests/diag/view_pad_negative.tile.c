/* view pad negative: tile_view_pad with negative padding: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, -1});
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_pad_negative.tile.c:5:35: error: tile_view_pad: padding of axis 1 is negative (-1, 0)
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, -1});
// expect:       |                                   ^~~~~~~~~~~~~
// expect-no-other-errors
