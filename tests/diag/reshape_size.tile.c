/* reshape size: reshape to a different element count; the caret is on tile_reshape, not on the tile_store around it. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0}, .shape = {64});
    tile_store(c, tile_reshape(t, .shape = {16, 8}), .index = {0, 0});
}
// expect: tests/diag/reshape_size.tile.c:6:19: error: cannot reshape a tile of shape (64,) (64 elements) to (16,8) (128 elements)
