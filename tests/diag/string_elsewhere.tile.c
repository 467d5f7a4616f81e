/* string literals elsewhere in tile code are still errors. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%d\n", "n");
}
// expect: tests/diag/string_elsewhere.tile.c:6:25: error: string literals are only allowed as tile_printf's format and tile_assert's message, not as an argument to print
// expect-no-other-errors
