/* extern.c: the host target's definitions of interop.tile.c's TILE_EXTERN
 * functions, the same code in C. */
#include <math.h>
#include <stdint.h>

float softplus(float x);
double affine(int32_t a, double x, double b);
int32_t collatz_steps(int64_t n);

float softplus(float x)
{
    return x > 20.0f ? x : log1pf(expf(x));
}

double affine(int32_t a, double x, double b)
{
    return a * x + b;
}

int32_t collatz_steps(int64_t n)
{
    int32_t s = 0;
    while (n != 1 && s < 1000) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        s++;
    }
    return s;
}
