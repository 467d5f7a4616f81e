/* syntax error: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4})
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/syntax_error.tile.c:5:55: error: expected ';' at end of declaration
