/* view layout parse: tile_view_layout with a bad layout: the parse error names the column. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = tile_view_layout(x, "(_,_):(1@1,1@2)");
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_layout_parse.tile.c:5:70: error: bad view layout '(_,_):(1@1,1@2)': column 15: the basis index after '@' is not an axis of the array
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_layout(x, "(_,_):(1@1,1@2)");
// expect:       |                                                                      ^
// expect-no-other-errors
