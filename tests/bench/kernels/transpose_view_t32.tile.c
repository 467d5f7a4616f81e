/* transpose_view_t32.tile.c: transpose_view.tile.c's kernel with one warp per block.
 * tilec-flags: --max-threads=32 */
#define TRANSPOSE_NAME transpose_view_t32
#define TRANSPOSE_BH 64 /* larger tiles spill with 32 threads */
#include "transpose_view.tile.c"
