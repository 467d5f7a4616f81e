/* loader.c: calls saxpy_run of a test shared library, either linked
 * (-DLINKED) or loaded with dlopen(argv[1]), and checks the result. */
#include <stdio.h>
#ifndef LINKED
#include <dlfcn.h>
#endif

int saxpy_run(float *x, float *y, int n, float a);

int main(int argc, char **argv)
{
    enum { N = 3000 };
    static float x[N], y[N];
    int (*run)(float *, float *, int, float) = 0;
#ifdef LINKED
    (void)argc, (void)argv;
    run = saxpy_run;
#else
    if (argc < 2) return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "loader: %s\n", dlerror());
        return 1;
    }
    *(void **)&run = dlsym(h, "saxpy_run");
    if (!run) {
        fprintf(stderr, "loader: no saxpy_run in %s\n", argv[1]);
        return 1;
    }
#endif
    for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
    int st = run(x, y, N, 3.0f);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += y[i] != 3.0f * (float)i + 1.0f;
    printf("loader: status %d, %d of %d correct\n", st, N - bad, N);
    return st != 0 || bad != 0;
}
