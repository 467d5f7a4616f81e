/* view const: a non-const view of a const (read-only) array: rejected, fix adds const. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(float, 2) v = tile_view_transpose(x);
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_const.tile.c:5:25: error: view 'v' of read-only array 'x' must have a const element type
// expect:     5 |     TILE_VIEW(float, 2) v = tile_view_transpose(x);
// expect:       |                         ^
// expect: tests/diag/view_const.tile.c:5:25: note: fix: declare it TILE_VIEW(const float, 2)
// expect-no-other-errors
