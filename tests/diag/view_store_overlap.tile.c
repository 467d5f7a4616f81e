/* view store overlap: tile_store through a window view (elements overlap): rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(float, 3) yw = tile_view_window(y, .size = {3});
    float t = tile_load(x, .index = {0, 0}, .shape = {4, 4});
    tile_store(yw, tile_reshape(t, .shape = {4, 4, 1}), .index = {0, 0, 0});
}
// expect: tests/diag/view_store_overlap.tile.c:7:16: error: tile_store cannot write through view 'yw': 2 of its sub-modes move along array axis 1, so its elements overlap
// expect:     7 |     tile_store(yw, tile_reshape(t, .shape = {4, 4, 1}), .index = {0, 0, 0});
// expect:       |                ^~
// expect-no-other-errors
