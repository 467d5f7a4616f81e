/* matmul_sm90_cluster.tile.c: matmul_sm90.tile.c's kernels compiled with
 * --sm90-clusters: the Hopper variants on a persistent grid launch in
 * clusters of two blocks, which take neighbouring tiles and load an operand
 * the two tiles share once for both (TMA multicast); with odd tile counts
 * the last cluster has a ghost block.  main.c is matmul_sm90's.  As
 * there, the mma.sync fallbacks of the largest tiles spill; the Hopper
 * variants' registers are checked on the device (tests/gpu/sass_check.sh).
 * tilec-flags: --sm90-clusters
 * nvcc-spills: allowed */
#include "../matmul_sm90/matmul_sm90.tile.c"
