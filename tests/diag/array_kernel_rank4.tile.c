/* array kernel rank 4: element-wise array kernels write arrays of rank 1 to 3. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 4) y, TILE_NDARRAY(const float, 4) x)
{
    y = x + 1;
}
// expect: tests/diag/array_kernel_rank4.tile.c:3:49: error: element-wise array kernels write arrays of rank 1 to 3; 'y' has rank 4
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 4) y, TILE_NDARRAY(const float, 4) x)
// expect:       |                                                 ^
// expect-no-other-errors
