/* array kernel tunable: an array kernel chooses its own tiles, so a TILE_TUNABLE parameter is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, TILE_TUNABLE(int, 64, 128) B)
{
    y = x * B;
}
// expect: tests/diag/array_kernel_tunable.tile.c:3:111: error: array kernel 'k' chooses its own tiles: TILE_TUNABLE and TILE_THREADS parameters ('B') belong to tile kernels
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, TILE_TUNABLE(int, 64, 128) B)
// expect:       |                                                                                                               ^
// expect: tests/diag/array_kernel_tunable.tile.c:3:111: note: fix: declare it TILE_CONST, or write a tile kernel to choose the tiling yourself
// expect-no-other-errors
