/* a tile builtin in a SIMT kernel: rejected, with the fix. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(float, 1) a)
{
    int i = simt_tid(0);
    a[i] = tile_exp(a[i]);
}
// expect: tests/diag/simt_tile_builtin.tile.c:6:12: error: tile_exp is a tile builtin; SIMT code cannot call it
// expect: tests/diag/simt_tile_builtin.tile.c:6:12: note: fix: use C and the simt_* builtins in SIMT code, or write a TILE_KERNEL
// expect-no-other-errors
