/* mutual recursion: two tile functions calling each other; the notes show the chain. */
#include <tilec.h>
TILE_FUNC float g(float x);
TILE_FUNC float f(float x)
{
    return g(x);
}
TILE_FUNC float g(float x)
{
    return f(x);
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, f(tile_load(a, .index = {0}, .shape = {4})), .index = {0});
}
// expect: tests/diag/mutual_recursion.tile.c:10:12: error: recursive call of tile function 'f': tile functions are inlined, so recursion is not allowed
// expect: tests/diag/mutual_recursion.tile.c:6:12: note: in the call of tile function 'g' here
// expect: tests/diag/mutual_recursion.tile.c:14:19: note: in the call of tile function 'f' here
