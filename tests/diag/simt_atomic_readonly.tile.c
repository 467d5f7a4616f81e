/* an atomic on a read-only array parameter. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(const int, 1) a, TILE_ARRAY(int, 1) b)
{
    b[0] = simt_atomic_add(&a[simt_tid(0)], 1);
}
// expect: tests/diag/simt_atomic_readonly.tile.c:5:28: error: array 'a' is read-only (const elements); atomics write
// expect: tests/diag/simt_atomic_readonly.tile.c:5:28: note: fix: drop the const of its TILE_ARRAY element type
// expect-no-other-errors
