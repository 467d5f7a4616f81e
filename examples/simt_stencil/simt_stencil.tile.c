/* simt_stencil.tile.c: a 2-D 5-point stencil as a SIMT kernel (issue #22's
 * "2-D stencil with a shared tile and halo"), checked by main.c on both
 * targets against a float64 reference.
 *
 *   out[i][j] = c0*x[i][j] + c1*(x[i-1][j] + x[i+1][j] + x[i][j-1] + x[i][j+1])
 *
 * with x taken as zero outside the array.  Each block of BX x BY threads
 * stages its BY x BX patch plus a one-element halo in shared memory, so every
 * element of x is read from global memory about once per block instead of
 * five times. */
#include <tilec.h>

enum { BX = 32, BY = 8 };

/* Launch with blocks of BX x BY threads and a grid of
 * ceil(cols / BX) x ceil(rows / BY) blocks: the tile's shape is the block's. */
SIMT_KERNEL void stencil5(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) out, float c0, float c1)
{
    SIMT_SHARED float tile[BY + 2][BX + 2];
    int64_t rows = simt_shape(x, 0), cols = simt_shape(x, 1);
    int tx = simt_thread_idx(0), ty = simt_thread_idx(1);
    int64_t row0 = (int64_t)simt_block_idx(1) * BY - 1, col0 = (int64_t)simt_block_idx(0) * BX - 1;
    /* The (BY+2) x (BX+2) patch, halo included, loaded cooperatively by the
     * block's threads in row-major order (consecutive threads read
     * consecutive columns: coalesced); outside the array it is zero, which
     * is the boundary condition. */
    for (int k = ty * BX + tx; k < (BY + 2) * (BX + 2); k += BX * BY) {
        int tr = k / (BX + 2), tc = k % (BX + 2);
        int64_t r = row0 + tr, c = col0 + tc;
        tile[tr][tc] = (r >= 0 && r < rows && c >= 0 && c < cols) ? SIMT_AT(x, r, c) : 0.0f;
    }
    simt_syncthreads();
    int64_t i = row0 + 1 + ty, j = col0 + 1 + tx;
    if (i < rows && j < cols) {
        float nb = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
        SIMT_AT(out, i, j) = c0 * tile[ty + 1][tx + 1] + c1 * nb;
    }
}
