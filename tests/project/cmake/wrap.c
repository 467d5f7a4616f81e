/* wrap.c: the entry point of the test shared libraries: runs the generated
 * saxpy launcher on plain C arrays (callable through dlsym or ctypes). */
#include "params.h"
#include "saxpy.h"

__attribute__((visibility("default"))) int saxpy_run(float *x, float *y, int n, float a)
{
    tilec_array xa = tilec_array_1d(x, TILEC_FLOAT32, n), ya = tilec_array_1d(y, TILEC_FLOAT32, n);
    return (int)saxpy(NULL, tilec_grid_1d(n, SAXPY_TILE), &xa, &ya, a);
}
