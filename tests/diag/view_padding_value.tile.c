/* view padding value: a .padding that is not a TILE_PAD_* value: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1}, .padding = 9);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_padding_value.tile.c:5:68: error: .padding must be one of TILE_PAD_*
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_pad(x, .low = {1, 1}, .padding = 9);
// expect:       |                                                                    ^~~~~~~
// expect-no-other-errors
