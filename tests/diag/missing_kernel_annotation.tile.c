/* missing kernel annotation: a definition with TILE_ARRAY parameters and
 * no TILE_KERNEL would be skipped without a word. */
#include <tilec.h>
void scale(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = tile_bid(0);
    tile_store(c, 2.0f * tile_load(a, .index = {i}, .shape = {128}), .index = {i});
}
// expect: tests/diag/missing_kernel_annotation.tile.c:4:6: error: function 'scale' has TILE_ARRAY parameters but is not marked TILE_KERNEL
// expect: tests/diag/missing_kernel_annotation.tile.c:4:6: note: fix: mark it a kernel: 'TILE_KERNEL void scale(...)'
// expect-no-other-errors
