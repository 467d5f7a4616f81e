/* mma dtypes: tile_mma operands of different dtypes. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c)
{
    _Float16 x = tile_load(a, .index = {0, 0}, .shape = {16, 16});
    __bf16 y = tile_load(b, .index = {0, 0}, .shape = {16, 16});
    float acc = tile_zeros(float, .shape = {16, 16});
    acc = tile_mma(x, y, acc);
    tile_store(c, acc, .index = {0, 0});
}
// expect: tests/diag/mma_dtypes.tile.c:8:11: error: tile_mma takes two float16, bfloat16, tfloat32, float8 or int8 tiles, not float16 and bfloat16
// expect: tests/diag/mma_dtypes.tile.c:8:11: note: fix: cast both operands to one of float16, bfloat16, tfloat32, float8 or int8
