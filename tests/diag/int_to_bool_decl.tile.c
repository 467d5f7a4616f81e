/* int to bool decl: an int32 tile into a bool variable. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    int32_t t = tile_arange(int32_t, .shape = {4});
    bool b = t;
    tile_store(c, tile_cast(b, float), .index = {0});
}
// expect: tests/diag/int_to_bool_decl.tile.c:6:14: error: cannot initialize bool variable 'b' with a int32 value implicitly
// expect: tests/diag/int_to_bool_decl.tile.c:6:14: note: fix: convert explicitly: tile_cast(value, bool), or declare it 'auto'
