/* array kernel reduction type error: a type error in a reduction's operand (which the lowering copies for the last chunk and the loop) is reported once, at the user's expression. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = tile_sum(tile_cast(x, _Float16) + tile_cast(x, __bf16), .axis = 1);
}
// expect: tests/diag/array_kernel_reduction_type_error.tile.c:5:18: error: cannot mix float16 and bfloat16: cast one operand, e.g. tile_cast(x, float)
// expect:     5 |     y = tile_sum(tile_cast(x, _Float16) + tile_cast(x, __bf16), .axis = 1);
// expect:       |                  ^~~~~~~~~
// expect-no-other-errors
