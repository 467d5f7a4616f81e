/* view source not array: a view constructor of something that is not an array or view: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_transpose(0);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_source_not_array.tile.c:5:35: error: the first argument of tile_view_transpose must be an array parameter or a view
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_transpose(0);
// expect:       |                                   ^~~~~~~~~~~~~~~~~~~
// expect-no-other-errors
