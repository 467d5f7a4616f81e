/* a subscript on a scalar in SIMT code: C's own error. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(int, 1) a, int n)
{
    a[simt_tid(0)] = n[0];
}
// expect: tests/diag/simt_subscript_scalar.tile.c:5:22: error: 'n' is not an array: it cannot be subscripted
// expect: tests/diag/simt_subscript_scalar.tile.c:5:22: note: fix: SIMT code subscripts arrays: TILE_ARRAY parameters (a[i], SIMT_AT(a, i, j)), local arrays and SIMT_SHARED arrays
// expect-no-other-errors
