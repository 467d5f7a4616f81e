/* tile_assert: the message must be a string literal. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_assert(n > 0, n);
}
// expect: tests/diag/assert_message_nonliteral.tile.c:6:24: error: the message of tile_assert must be a string literal
// expect-no-other-errors
