/* layer_norm_b6.tile.c: layer_norm.tile.c's kernel with nvcc asked to fit 6
 * blocks (6 rows in flight) per SM, at 40 registers a thread instead of 48.
 * tilec-flags: --min-blocks=6 */
#define LAYER_NORM_NAME layer_norm_f16_b6
#include "layer_norm.tile.c"
