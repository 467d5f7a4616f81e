/* view pad no sides: tile_view_pad without .low or .high: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_pad(x);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_pad_no_sides.tile.c:5:35: error: tile_view_pad needs .low or .high
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_pad(x);
// expect:       |                                   ^~~~~~~~~~~~~
// expect: tests/diag/view_pad_no_sides.tile.c:5:35: note: fix: add .low = {...} and/or .high = {...}, one entry per axis
// expect-no-other-errors
