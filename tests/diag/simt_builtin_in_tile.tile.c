/* a SIMT builtin in a tile kernel: rejected, with the fix. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) a)
{
    int i = simt_thread_idx(0);
    tile_store(a, tile_zeros(float, .shape = {16}), .index = {i});
}
// expect: tests/diag/simt_builtin_in_tile.tile.c:5:13: error: simt_thread_idx is a SIMT builtin; tile code cannot call it
// expect: tests/diag/simt_builtin_in_tile.tile.c:5:13: note: fix: call it from a SIMT_KERNEL or SIMT_FUNC, or use the tile builtins here
// expect-no-other-errors
