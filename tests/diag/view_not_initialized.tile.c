/* view not initialized: a TILE_VIEW initialized by something other than a view constructor: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = x;
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_not_initialized.tile.c:5:35: error: view 'v' must be initialized by a view constructor
// expect:     5 |     TILE_VIEW(const float, 2) v = x;
// expect:       |                                   ^
// expect: tests/diag/view_not_initialized.tile.c:5:35: note: fix: initialize it with tile_view_transpose, _permute, _pad, _window, _im2col or _layout
// expect-no-other-errors
