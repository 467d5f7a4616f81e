/* view permute count: tile_view_permute with too few .axes: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_permute(x, .axes = {1});
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_permute_count.tile.c:5:35: error: tile_view_permute needs .axes with 2 entries (the view's rank); 1 given
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_permute(x, .axes = {1});
// expect:       |                                   ^~~~~~~~~~~~~~~~~
// expect: tests/diag/view_permute_count.tile.c:5:35: note: fix: list the source axis of each view axis: .axes = {...}
// expect-no-other-errors
