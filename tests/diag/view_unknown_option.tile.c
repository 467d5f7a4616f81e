/* view unknown option: an option the constructor does not take: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1}, .size = {2});
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_unknown_option.tile.c:5:68: error: unknown option '.size' for tile_view_pad
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1}, .size = {2});
// expect:       |                                                                    ^~~~
// expect: tests/diag/view_unknown_option.tile.c:5:68: note: fix: use one of tile_view_pad's options: .low, .high, .padding
// expect-no-other-errors
