/* view store readonly: tile_store through a const view of a writable array: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) yt = tile_view_transpose(y);
    float t = tile_load(x, .index = {0, 0}, .shape = {4, 4});
    tile_store(yt, t, .index = {0, 0});
}
// expect: tests/diag/view_store_readonly.tile.c:7:16: error: view 'yt' is read-only (it or its array 'y' has a const element type)
// expect:     7 |     tile_store(yt, t, .index = {0, 0});
// expect:       |                ^~
// expect-no-other-errors
