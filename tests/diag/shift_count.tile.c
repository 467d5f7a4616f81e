/* shift count: a constant shift count beyond the width. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const int16_t, 1) a, TILE_ARRAY(int16_t, 1) c)
{
    int16_t t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t << 16, .index = {0});
}
// expect: tests/diag/shift_count.tile.c:6:19: error: shift count 16 is out of range for int16 (0 to 15)
