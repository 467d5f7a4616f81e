/* tile_printf: %s has nothing to print in tile code. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("x = %s\n", x);
}
// expect: tests/diag/printf_string_conv.tile.c:6:23: error: '%s' is not supported by tile_printf: tile code has no strings, characters or pointers
// expect-no-other-errors
