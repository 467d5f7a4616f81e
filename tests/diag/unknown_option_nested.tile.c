/* unknown option inside another builtin's argument: the innermost builtin
 * is named; far from every option, no suggestion. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {16, 16});
    tile_store(c, tile_sum(t, .dims = 1), .index = {0});
}
// expect: tests/diag/unknown_option_nested.tile.c:7:32: error: unknown option '.dims' for tile_sum
// expect: tests/diag/unknown_option_nested.tile.c:7:32: note: fix: use one of tile_sum's options: .axis, .keepdims
// expect-no-other-errors
