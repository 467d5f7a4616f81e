/* fused_expr.tile.c: seed 002's expression A = B + C*D + sin(E)*F + 10,
 * float32, fused: five loads, one store, every intermediate in registers.
 * The harness times every listed BS and reports the fastest. */
#include <tilec.h>

TILE_KERNEL void fused_expr(TILE_ARRAY(float, 1) A, TILE_ARRAY(const float, 1) B, TILE_ARRAY(const float, 1) C,
                            TILE_ARRAY(const float, 1) D, TILE_ARRAY(const float, 1) E, TILE_ARRAY(const float, 1) F,
                            TILE_CONST(int, 1024, 2048, 4096) BS)
{
    int pid = tile_bid(0);
    float b = tile_load(B, .index = {pid}, .shape = {BS});
    float c = tile_load(C, .index = {pid}, .shape = {BS});
    float d = tile_load(D, .index = {pid}, .shape = {BS});
    float e = tile_load(E, .index = {pid}, .shape = {BS});
    float f = tile_load(F, .index = {pid}, .shape = {BS});
    tile_store(A, b + c * d + tile_sin(e) * f + 10, .index = {pid});
}
