/* view layout underscore: tile_view_layout with a '_' extent of stride 0: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_layout(x, "(_,_):(1@0,0)");
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_layout_underscore.tile.c:5:55: error: bad view layout '(_,_):(1@0,0)': a '_' extent needs a stride c@j to take array axis j's extent
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_layout(x, "(_,_):(1@0,0)");
// expect:       |                                                       ^~~~~~~~~~~~~~~
// expect-no-other-errors
