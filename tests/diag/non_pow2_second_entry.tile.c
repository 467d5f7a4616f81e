/* non pow2 second entry: the caret is on the .shape entry that is not a power of two. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {16, 12});
    tile_store(c, t, .index = {0, 0});
}
// expect: tests/diag/non_pow2_second_entry.tile.c:5:59: error: tile dimension 12 is not a power of two (tile_load, .shape entry 1)
// expect: tests/diag/non_pow2_second_entry.tile.c:5:59: note: fix: round it up to a power of two and let padding or masking handle the rest
