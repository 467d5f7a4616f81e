/* view option entries: a view option with more entries than the view has axes: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1, 1});
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_option_entries.tile.c:5:53: error: .low has 3 entries; this view takes at most 2
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1, 1});
// expect:       |                                                     ^~~
// expect-no-other-errors
