/* view bad element type: a view of an element type Tile C does not have: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const long double, 2) v = tile_view_transpose(x);
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_bad_element_type.tile.c:5:37: error: view 'v' has element type 'long double', which is not a Tile C element type
// expect:     5 |     TILE_VIEW(const long double, 2) v = tile_view_transpose(x);
// expect:       |                                     ^
// expect-no-other-errors
