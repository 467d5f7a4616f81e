/* recursion: rejected. */
#include <tilec.h>
TILE_FUNC float twice(float x)
{
    float y = twice(x);
    return y;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, twice(t), .index = {0});
}
// expect: tests/diag/recursion.tile.c:5:15: error: recursive call of tile function 'twice': tile functions are inlined, so recursion is not allowed
