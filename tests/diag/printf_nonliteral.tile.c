/* tile_printf: the format must be a string literal. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf(n, x);
}
// expect: tests/diag/printf_nonliteral.tile.c:6:17: error: the format of tile_printf must be a string literal
// expect-no-other-errors
