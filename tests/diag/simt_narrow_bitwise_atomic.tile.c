/* bitwise atomics on a narrow float: rejected as for float (add, sub, max,
 * min, nanmax, nanmin, exch, cas, load and store take float16/bfloat16). */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(_Float16, 1) a)
{
    simt_atomic_add(&a[0], 1.0f);
    simt_atomic_or(&a[1], 1);
}
// expect: tests/diag/simt_narrow_bitwise_atomic.tile.c:7:20: error: simt_atomic_or needs an element of type int32, uint32, int64 or uint64, not '_Float16'
// expect-no-other-errors
