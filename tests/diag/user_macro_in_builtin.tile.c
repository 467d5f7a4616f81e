/* user macro in builtin: an error in a user macro inside a builtin's argument points at the macro and names it. */
#include <tilec.h>
#define N 48
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {N});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/user_macro_in_builtin.tile.c:6:52: error: tile dimension 48 is not a power of two (tile_load, .shape entry 0)
// expect: tests/diag/user_macro_in_builtin.tile.c:6:52: note: in expansion of macro 'N'
