/* main.c: matmul_sm90's checks on matmul_sm90_cluster.tile.c's kernels (the
 * same kernels, launched in clusters of two on sm_90a). */
#define MATMUL_SM90_H "matmul_sm90_cluster.h"
#include "../matmul_sm90/main.c"
