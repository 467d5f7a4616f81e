/* view layout of view: tile_view_layout of a view (arrays only): rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) xt = tile_view_transpose(x);
    TILE_VIEW(const float, 2) v = tile_view_layout(xt, "(_,_):(1@1,1@0)");
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_layout_of_view.tile.c:6:52: error: tile_view_layout takes an array parameter, not a view
// expect:     6 |     TILE_VIEW(const float, 2) v = tile_view_layout(xt, "(_,_):(1@1,1@0)");
// expect:       |                                                    ^~
// expect-no-other-errors
