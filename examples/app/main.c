/* main.c: a small C application that uses a tilec kernel through its
 * generated header, built by the Makefile beside it with an installed tilec
 * (host target, so it runs without a GPU). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "params.h"
#include "saxpy.h"

int main(void)
{
    enum { N = 100000 };
    float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N), *want = malloc(sizeof(float) * N);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = (float)(N - i);
        want[i] = 2.0f * x[i] + y[i];
    }
    tilec_array xa = tilec_array_1d(x, TILEC_FLOAT32, N), ya = tilec_array_1d(y, TILEC_FLOAT32, N);
    tilec_status st = saxpy(NULL, tilec_grid_1d(N, SAXPY_TILE), &xa, &ya, 2.0f);
    if (st != TILEC_OK) {
        fprintf(stderr, "saxpy: %s (%s)\n", tilec_status_string(st), tilec_last_error());
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += y[i] != want[i];
    printf("app: %d of %d elements correct\n", N - bad, N);
    free(x), free(y), free(want);
    return bad != 0;
}
