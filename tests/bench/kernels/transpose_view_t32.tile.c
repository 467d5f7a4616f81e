/* transpose_view_t32.tile.c: transpose_view.tile.c's kernel with one warp per block.
 * tilec-flags: --max-threads=32
 * nvcc-spills: allowed (the 64 x 64 tile's unaligned variant, 128 elements a
 * thread through its element-wise edge path, spills 96 bytes) */
#define TRANSPOSE_NAME transpose_view_t32
#define TRANSPOSE_BH 64 /* larger tiles spill with 32 threads */
#include "transpose_view.tile.c"
