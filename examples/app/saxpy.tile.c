/* saxpy.tile.c: y = a*x + y, the kernel of the example application. */
#include <tilec.h>
#include "params.h"

/* y[i] = a * x[i] + y[i], SAXPY_TILE elements per block. */
TILE_KERNEL void saxpy(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, float a)
{
    int pid = tile_bid(0);
    float xs = tile_load(x, .index = {pid}, .shape = {SAXPY_TILE}, .padding = TILE_PAD_ZERO);
    float ys = tile_load(y, .index = {pid}, .shape = {SAXPY_TILE}, .padding = TILE_PAD_ZERO);
    tile_store(y, a * xs + ys, .index = {pid});
}
