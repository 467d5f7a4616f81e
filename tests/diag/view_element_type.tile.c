/* view element type: a view whose element type differs from its array's: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) v = tile_view_transpose(x);
    tile_store(y, tile_load(v, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_element_type.tile.c:5:31: error: view 'v' has element type float (float32), but its array 'x' has _Float16 (float16)
// expect:     5 |     TILE_VIEW(const float, 2) v = tile_view_transpose(x);
// expect:       |                               ^
// expect: tests/diag/view_element_type.tile.c:5:31: note: fix: declare it TILE_VIEW(const _Float16, 2)
// expect-no-other-errors
