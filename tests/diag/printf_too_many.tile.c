/* tile_printf: an argument without a conversion. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%d\n", n, x);
}
// expect: tests/diag/printf_too_many.tile.c:6:28: error: tile_printf has more arguments than its format has conversions (1)
// expect-no-other-errors
