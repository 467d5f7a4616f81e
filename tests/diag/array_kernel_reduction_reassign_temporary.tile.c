/* array kernel reduction reassign temporary: a reduction's array kernel substitutes its temporaries, so one cannot be reassigned. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    float t = x * 2;
    t = t + 1;
    y = tile_sum(t, .axis = 1);
}
// expect: tests/diag/array_kernel_reduction_reassign_temporary.tile.c:6:5: error: a reduction's array kernel cannot reassign a temporary; declare a new one
// expect:     6 |     t = t + 1;
// expect:       |     ^~~~~~~~~
// expect-no-other-errors
