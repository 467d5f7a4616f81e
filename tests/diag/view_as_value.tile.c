/* view as value: a view used as a value (converted to bool): rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, int32_t n)
{
    TILE_VIEW(const float, 2) v = tile_view_transpose(x);
    bool b = v;
    tile_store(y, tile_load(x, .index = {0, 0}, .shape = {4, 4}), .index = {0, 0});
}
// expect: tests/diag/view_as_value.tile.c:6:14: error: view 'v' used as a value
// expect:     6 |     bool b = v;
// expect:       |              ^
// expect: tests/diag/view_as_value.tile.c:6:14: note: fix: load a tile: tile_load(view, .index = {...}, .shape = {...})
// expect-no-other-errors
