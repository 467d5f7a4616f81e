/* matmul_f16.tile.c: matmul.tile.c's kernel for float16 in and out
 * (float32 accumulator), the tiles of its fastest bfloat16 variants. */
#define MATMUL_NAME matmul_f16
#define MATMUL_T _Float16
#define MATMUL_BN 256
#include "matmul.tile.c"
