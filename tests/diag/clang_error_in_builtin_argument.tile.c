/* clang error in builtin argument: clang's own error inside a builtin's arguments keeps clang's column. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    int32_t m = tile_zeros(int32_t, .shape = {16});
    tile_store(c, tile_cast(m & t, float), .index = {0});
}
// expect: tests/diag/clang_error_in_builtin_argument.tile.c:7:31: error: invalid operands to binary expression ('int32_t' (aka 'int') and 'float')
