/* const does not fit: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const int8_t, 1) a, TILE_ARRAY(int8_t, 1) c)
{
    int8_t t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t + 300, .index = {0});
}
// expect: tests/diag/const_does_not_fit.tile.c:6:19: error: integer constant 300 does not fit int8: cast the other operand to a wider type, e.g. tile_cast(x, int16_t)
