/* a[i] on a rank-2 array parameter: SIMT_AT is the spelling. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(float, 2) a)
{
    a[simt_tid(0)] = 0;
}
// expect: tests/diag/simt_rank2_subscript.tile.c:5:5: error: array parameter 'a' has rank 2; a[i] indexes rank-1 arrays
// expect: tests/diag/simt_rank2_subscript.tile.c:5:5: note: fix: write 'SIMT_AT(a, i, ...)' with 2 indices
// expect-no-other-errors
