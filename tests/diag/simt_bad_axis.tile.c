/* a thread position's axis must be 0, 1 or 2. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(int, 1) a)
{
    a[simt_thread_idx(0)] = simt_block_dim(3);
}
// expect: tests/diag/simt_bad_axis.tile.c:5:44: error: axis 3 of simt_block_dim is out of range
// expect: tests/diag/simt_bad_axis.tile.c:5:44: note: fix: write 0 (x), 1 (y) or 2 (z)
// expect-no-other-errors
