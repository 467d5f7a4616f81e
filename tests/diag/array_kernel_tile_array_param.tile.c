/* array kernel tile array param: an array kernel takes TILE_NDARRAY parameters, not TILE_ARRAY ones. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_ARRAY(const float, 1) x)
{
    y = 1;
}
// expect: tests/diag/array_kernel_tile_array_param.tile.c:3:79: error: array kernel 'k' takes whole arrays, not TILE_ARRAY parameter 'x'
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_ARRAY(const float, 1) x)
// expect:       |                                                                               ^
// expect: tests/diag/array_kernel_tile_array_param.tile.c:3:79: note: fix: declare it TILE_NDARRAY(T, rank): in an array kernel the name is the whole array
// expect-no-other-errors
