/* view gather: a view passed to tile_gather (arrays only): rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    TILE_VIEW(const float, 2) xt = tile_view_transpose(x);
    int32_t r = tile_arange(int32_t, .shape = {4});
    float t = tile_gather(xt, .index = {r, 0});
    tile_store(y, tile_reshape(t, .shape = {1, 4}), .index = {0, 0});
}
// expect: tests/diag/view_gather.tile.c:7:27: error: tile_gather takes an array, not a view ('xt')
// expect:     7 |     float t = tile_gather(xt, .index = {r, 0});
// expect:       |                           ^~
// expect: tests/diag/view_gather.tile.c:7:27: note: fix: pass the array itself, or read the view with tile_load
// expect-no-other-errors
