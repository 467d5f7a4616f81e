/* narrowing decl: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    _Float16 h = t * 2;
    tile_store(c, (float)h, .index = {0});
}
// expect: tests/diag/narrowing_decl.tile.c:6:18: error: cannot initialize float16 variable 'h' with a float32 value implicitly
