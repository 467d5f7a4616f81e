/* main.c: checks which BN the launcher of tuned.tile.c picks from
 * tuning.txt: the entry of the same bucket (ceil(log2) of every extent), the
 * nearest entry, or (on a device that the file has no entry for) the
 * default, BN's first value.  On the host the device's cc is 0, as in the
 * file; built for CUDA, no entry matches the GPU's cc and every shape gets
 * the default. */
#include "../../../examples/common/example.h"
#include "tuned.h"

static int run(int64_t n, int want)
{
    float *x = malloc(sizeof(float) * (size_t)(n ? n : 1)), *y = malloc(sizeof(float) * (size_t)(n ? n : 1));
    int32_t *o = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) x[i] = (float)i;
    float *dx = ex_alloc(sizeof(float) * (size_t)(n ? n : 1)), *dy = ex_alloc(sizeof(float) * (size_t)(n ? n : 1));
    int32_t *dO = ex_alloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    ex_upload(dx, x, sizeof(float) * (size_t)n);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), Y = tilec_array_1d(dy, TILEC_FLOAT32, n),
                O = tilec_array_1d(dO, TILEC_INT32, n);
    ex_status("tuned", tuned(NULL, &X, &Y, &O, 2));
    ex_download(o, dO, sizeof(int32_t) * (size_t)n), ex_download(y, dy, sizeof(float) * (size_t)n);
#ifdef EXAMPLE_CUDA
    want = 16; /* no entry for the GPU's cc: the default */
#endif
    int ok = 1;
    for (int64_t i = 0; i < n; i++) ok &= o[i] == want && y[i] == x[i] + (float)(want * 2);
    ex_free(dx), ex_free(dy), ex_free(dO);
    free(x), free(y), free(o);
    return ok;
}

static int run_default(int which, int want)
{
    int32_t o[100], *dO = ex_alloc(sizeof o);
    tilec_array O = tilec_array_1d(dO, TILEC_INT32, 100);
    ex_status("tuned default", which ? tuned_none(NULL, &O) : tuned_dflt(NULL, &O));
    ex_download(o, dO, sizeof o);
    int ok = 1;
    for (int i = 0; i < 100; i++) ok &= o[i] == want;
    ex_free(dO);
    return ok;
}

int main(void)
{
    ex_expect("n = 1000: the entry of bucket 10 (BN = 32)", run(1000, 32));
    ex_expect("n = 600: same bucket 10 (BN = 32)", run(600, 32));
    ex_expect("n = 40000: nearest is bucket 16 (BN = 64)", run(40000, 64));
    ex_expect("n = 50: nearest is bucket 6 (BN = 16)", run(50, 16));
    ex_expect("n = 4000: nearest is bucket 10 (BN = 32)", run(4000, 32));
    ex_expect("n = 100: bucket 7, nearest 6 (BN = 16)", run(100, 16));
    ex_expect("n = 0: an empty problem", run(0, 16));
    ex_expect("no entries, a default line (BN = 32)", run_default(0, 32));
    ex_expect("no entries, no default line: the first value (BN = 64)", run_default(1, 64));
    return ex_finish("tuned");
}
