/* view permute axes: tile_view_permute whose .axes is not a permutation: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 3) x, TILE_ARRAY(float, 3) y)
{
    TILE_VIEW(const float, 3) v = tile_view_permute(x, .axes = {2, 0, 2});
    tile_store(y, tile_load(v, .index = {0, 0, 0}, .shape = {1, 4, 4}), .index = {0, 0, 0});
}
// expect: tests/diag/view_permute_axes.tile.c:5:35: error: tile_view_permute: .axes must list each of the 3 axes 0..2 once
// expect:     5 |     TILE_VIEW(const float, 3) v = tile_view_permute(x, .axes = {2, 0, 2});
// expect:       |                                   ^~~~~~~~~~~~~~~~~
// expect-no-other-errors
