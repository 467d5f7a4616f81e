/* view transpose rank: tile_view_transpose of a rank-1 view: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 1) v = tile_view_layout(x, "_:1@0");
    TILE_VIEW(const float, 1) w = tile_view_transpose(v);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_transpose_rank.tile.c:6:35: error: tile_view_transpose needs a view of rank 2 or more; 'v' has rank 1
// expect:     6 |     TILE_VIEW(const float, 1) w = tile_view_transpose(v);
// expect:       |                                   ^~~~~~~~~~~~~~~~~~~
// expect-no-other-errors
