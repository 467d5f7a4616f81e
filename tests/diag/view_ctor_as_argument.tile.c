/* view ctor as argument: a view constructor passed straight to tile_load: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    float t = tile_load(tile_view_transpose(x), .index = {0, 0}, .shape = {4, 4});
    tile_store(y, t, .index = {0, 0});
}
// expect: tests/diag/view_ctor_as_argument.tile.c:5:25: error: tile_view_transpose builds a view; it is only the value of a TILE_VIEW declaration
// expect:     5 |     float t = tile_load(tile_view_transpose(x), .index = {0, 0}, .shape = {4, 4});
// expect:       |                         ^~~~~~~~~~~~~~~~~~~
// expect: tests/diag/view_ctor_as_argument.tile.c:5:25: note: fix: declare the view first: TILE_VIEW(T, rank) v = tile_...(array, ...); then pass v
// expect-no-other-errors
