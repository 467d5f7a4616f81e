/* view im2col rank: tile_view_im2col of an array without spatial axes: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_im2col(x, .size = {3});
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_im2col_rank.tile.c:5:35: error: tile_view_im2col: im2col takes an (N, C, spatial...) array (channels_last: (N, spatial..., C)) with 1 to 3 spatial axes: a view of rank 2 has 0, and .size lists 1
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_im2col(x, .size = {3});
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect-no-other-errors
