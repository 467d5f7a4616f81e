/* array kernel reduction input rank: a reduction without .keepdims cannot meet a value of the operands' rank. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 2) w)
{
    y = tile_sum(x, .axis = 1) + w;
}
// expect: tests/diag/array_kernel_reduction_input_rank.tile.c:5:34: error: a reduction without .keepdims (rank 1) meets a value of rank 2 here; give the reduction .keepdims = true to broadcast it along axis 1
// expect:     5 |     y = tile_sum(x, .axis = 1) + w;
// expect:       |                                  ^
// expect-no-other-errors
