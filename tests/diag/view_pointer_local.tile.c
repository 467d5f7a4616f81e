/* view pointer local: a plain pointer local (not a TILE_VIEW): rejected, the fix-it names TILE_VIEW. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    const float *p = x;
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_pointer_local.tile.c:5:18: error: pointer variable 'p' is not allowed in tile code
// expect:     5 |     const float *p = x;
// expect:       |                  ^
// expect: tests/diag/view_pointer_local.tile.c:5:18: note: fix: a view of an array is declared TILE_VIEW(T, rank) name = tile_view_...(array, ...)
// expect-no-other-errors
