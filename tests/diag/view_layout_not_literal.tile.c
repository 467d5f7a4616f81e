/* view layout not literal: tile_view_layout with a layout that is not a string literal: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_layout(x, 0);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_layout_not_literal.tile.c:5:35: error: tile_view_layout needs the layout in CuTe notation as a string literal
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_layout(x, 0);
// expect:       |                                   ^~~~~~~~~~~~~~~~
// expect: tests/diag/view_layout_not_literal.tile.c:5:35: note: fix: write it as a string literal: tile_view_layout(x, "(_,_):(1@1,1@0)")
// expect-no-other-errors
