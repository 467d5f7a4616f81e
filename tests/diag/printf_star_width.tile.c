/* tile_printf: a '*' width is a run-time value. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%*d\n", n, n);
}
// expect: tests/diag/printf_star_width.tile.c:6:19: error: a '*' width is not supported by tile_printf
// expect-no-other-errors
