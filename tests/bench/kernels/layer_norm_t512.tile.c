/* layer_norm_t512.tile.c: layer_norm.tile.c's kernel with 512 threads per block.
 * tilec-flags: --max-threads=512 */
#define LAYER_NORM_NAME layer_norm_f16_t512
#include "layer_norm.tile.c"
