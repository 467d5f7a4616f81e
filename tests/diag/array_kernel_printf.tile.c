/* array kernel printf: a call statement (tile_printf) in an array kernel's body is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x)
{
    y = x;
    tile_printf("%f\n", x);
}
// expect: tests/diag/array_kernel_printf.tile.c:6:5: error: an array kernel's body is whole-array statements: temporaries and assignments to its output arrays
// expect:     6 |     tile_printf("%f\n", x);
// expect:       |     ^~~~~~~~~~~
// expect: tests/diag/array_kernel_printf.tile.c:6:5: note: fix: write a tile kernel (TILE_KERNEL) for loops, conditions and stores
// expect-no-other-errors
