/* loops.tile.c: nested loops, continue and break at both depths, a loop
 * carrying a tile, for loops with missing parts, else-if chains, an empty
 * statement, (void) and a bare return. */
#include <tilec.h>

#define STEPS 4

TILE_KERNEL void loops(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) out, int n)
{
    int pid = tile_bid(0);
    float acc = tile_zeros(float, .shape = {128});
    for (int i = 0; i < STEPS; i++) {
        if (i == 1)
            continue;
        for (int j = i; j < STEPS; j += 2) {
            if (j > n) break;
            if (j == 2) {
                continue;
            }
            acc += tile_load(a, .index = {pid * STEPS + j}, .shape = {128}, .padding = TILE_PAD_ZERO);
        }
    }
    int k = n;
    k = 0;
    for (;;) {
        k++;
        if (k >= n) break;
    }
    for (k = 0; k < 3;) {
        k += 1;
    }
    while (k > 0) {
        k--;
        if (k == 1) continue;
        acc = acc * 0.5f;
    }
    if (n < 0) {
        return;
    } else if (n == 0) {
        acc = -acc;
    } else {
        ;
    }
    (void)k;
    tile_store(out, acc, .index = {pid});
    return;
}
