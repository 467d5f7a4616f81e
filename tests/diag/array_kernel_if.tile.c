/* array kernel if: an array kernel's body is whole-array statements; a condition is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, int n)
{
    if (n > 0) y = x;
}
// expect: tests/diag/array_kernel_if.tile.c:5:5: error: an array kernel's body is whole-array statements: temporaries and assignments to its output arrays
// expect:     5 |     if (n > 0) y = x;
// expect:       |     ^~~~~~~~~~~~~~~~
// expect: tests/diag/array_kernel_if.tile.c:5:5: note: fix: write a tile kernel (TILE_KERNEL) for loops, conditions and stores
// expect-no-other-errors
