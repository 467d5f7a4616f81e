/* tile_printf: an unknown conversion. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("\tn = %q\n", n);
}
// expect: tests/diag/printf_unknown_conv.tile.c:6:25: error: unknown conversion '%q' in tile_printf's format
// expect-no-other-errors
