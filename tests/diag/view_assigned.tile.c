/* view assigned: a view assigned after its declaration: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = tile_view_transpose(x);
    v = tile_view_pad(x, .low = {1, 1});
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_assigned.tile.c:6:5: error: view 'v' cannot be assigned; a view is fixed where it is declared
// expect:     6 |     v = tile_view_pad(x, .low = {1, 1});
// expect:       |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// expect: tests/diag/view_assigned.tile.c:6:5: note: fix: declare another TILE_VIEW for the other layout
// expect-no-other-errors
