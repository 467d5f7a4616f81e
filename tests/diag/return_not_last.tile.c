/* return not last: an early return in a tile function; the caret is on that return. */
#include <tilec.h>
TILE_FUNC float pick(float x, int m)
{
    if (m > 0) return x;
    return -x;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, pick(t, 1), .index = {0});
}
// expect: tests/diag/return_not_last.tile.c:5:16: error: tile function 'pick' may return only as its last statement
