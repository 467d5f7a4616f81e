/* view ctor outside decl: a view constructor used as a value outside a TILE_VIEW declaration: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    bool b = tile_view_transpose(x);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_ctor_outside_decl.tile.c:5:14: error: tile_view_transpose builds a view; it is only the value of a TILE_VIEW declaration
// expect:     5 |     bool b = tile_view_transpose(x);
// expect:       |              ^~~~~~~~~~~~~~~~~~~
// expect: tests/diag/view_ctor_outside_decl.tile.c:5:14: note: fix: declare a view with it: TILE_VIEW(T, rank) v = tile_view_...(array, ...);
// expect-no-other-errors
