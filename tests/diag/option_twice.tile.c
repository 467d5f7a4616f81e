/* option twice: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4}, .shape = {8});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/option_twice.tile.c:5:57: error: option '.shape' given twice
