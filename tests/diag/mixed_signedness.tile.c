/* mixed signedness: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const int8_t, 1) a, TILE_ARRAY(const uint8_t, 1) b, TILE_ARRAY(int16_t, 1) c)
{
    int8_t x = tile_load(a, .index = {0}, .shape = {16});
    uint8_t y = tile_load(b, .index = {0}, .shape = {16});
    int16_t z = x + y;
    tile_store(c, z, .index = {0});
}
// expect: tests/diag/mixed_signedness.tile.c:7:17: error: cannot mix signed and unsigned integers (int8 and uint8): cast one operand, e.g. tile_cast(x, int16_t)
