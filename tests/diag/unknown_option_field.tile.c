/* unknown option field: clang would name tilec.h's internal option struct;
 * the message names the builtin, the nearest option and all of them. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shapes = {16});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/unknown_option_field.tile.c:6:43: error: unknown option '.shapes' for tile_load; did you mean '.shape'?
// expect: tests/diag/unknown_option_field.tile.c:6:43: note: fix: use one of tile_load's options: .index, .shape, .order, .padding, .latency
// expect-no-other-errors
