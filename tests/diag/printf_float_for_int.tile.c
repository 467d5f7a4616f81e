/* tile_printf: a float conversion for an integer. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%f\n", n);
}
// expect: tests/diag/printf_float_for_int.tile.c:6:25: error: argument 1 of tile_printf is an int32 scalar, but its conversion '%f' prints a float
// expect-no-other-errors
