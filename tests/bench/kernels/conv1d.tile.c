/* conv1d.tile.c: the example's causal conv1d kernel (examples/conv1d), seed
 * 004's transpose + pad + im2col + GEMM pipeline in one kernel: the im2col
 * windows are gathered from x and multiplied on tensor cores. */
#include "../../../examples/conv1d/conv1d.tile.c"
