/* tile_printf: an integer conversion for a float tile. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%d %d\n", n, x);
}
// expect: tests/diag/printf_int_for_float.tile.c:6:31: error: argument 2 of tile_printf is a float32 tile of shape (4,), but its conversion '%d' prints an integer
// expect-no-other-errors
