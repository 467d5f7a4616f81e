/* misspelt option value: tilec.h's enum constants are suggested too. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0}, .shape = {16}, .padding = TILE_PAD_ZEROS);
    tile_store(c, x, .index = {0});
}
// expect: tests/diag/misspelt_option_value.tile.c:5:68: error: use of undeclared identifier 'TILE_PAD_ZEROS'; did you mean 'TILE_PAD_ZERO'?
// expect-no-other-errors
