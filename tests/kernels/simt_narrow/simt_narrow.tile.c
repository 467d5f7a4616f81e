/* simt_narrow.tile.c: float16 (_Float16) and bfloat16 (__bf16) in SIMT code
 * (docs/language.md, "SIMT kernels"), checked by main.c on both targets
 * against references rounded from exact float64 arithmetic: C's typing
 * (clang's: _Float16 op _Float16 is a _Float16, _Float16 op float a float)
 * with every operation rounded to its type, as CUDA's __half and
 * __nv_bfloat16 round.  float16 divisions here have exact quotients (CUDA's
 * __hdiv multiplies by an approximate reciprocal); bfloat16's are general. */
#include <tilec.h>

enum { NH = 15, NB = 12, NI = 10 };

/* a*t + b*(1 - t), every operation in float16 */
SIMT_FUNC _Float16 mix(_Float16 a, _Float16 b, _Float16 t)
{
    return a * t + b * (1 - t);
}

/* the sum of a local array, in bfloat16 */
SIMT_FUNC __bf16 sum4(__bf16 x)
{
    __bf16 r[4] = {x, 1, 2.5f, x * x};
    __bf16 s = 0;
    for (int k = 0; k < 4; k++) s += r[k];
    return s;
}

/* Per element i: NH float16 results in oh[i, :], NB bfloat16 ones in
 * ob[i, :] and NI integers in oi[i, :] (main.c lists them).  Blocks of 128
 * threads; the last block's threads past n take part in the shuffles. */
SIMT_KERNEL void narrow_ops(TILE_ARRAY(const _Float16, 1) a, TILE_ARRAY(const __bf16, 1) b, _Float16 hs, __bf16 bs,
                            TILE_ARRAY(_Float16, 2) oh, TILE_ARRAY(__bf16, 2) ob, TILE_ARRAY(int32_t, 2) oi)
{
    SIMT_SHARED _Float16 tile[128];
    int i = simt_tid(0), t = simt_thread_idx(0);
    int64_t n = simt_shape(a, 0);
    _Float16 x = i < n ? a[i] : 0;
    __bf16 y = i < n ? b[i] : (__bf16)0;
    tile[t] = x;
    simt_syncthreads();
    _Float16 nb = tile[t ^ 1];
    _Float16 sx = simt_shfl_xor_sync(0xffffffffu, x, 1);
    __bf16 sy = simt_shfl_down_sync(0xffffffffu, y, 1);
    unsigned same = simt_match_any_sync(0xffffffffu, (_Float16)(i % 3) * 0.5f16);
    if (i >= n) return;

    SIMT_AT(oh, i, 0) = x * hs + x;
    SIMT_AT(oh, i, 1) = x - hs;
    SIMT_AT(oh, i, 2) = x / 4;
    SIMT_AT(oh, i, 3) = (_Float16)(x * 2.5f);
    SIMT_AT(oh, i, 4) = x + i;
    _Float16 h = x;
    h += hs;
    h *= 3;
    h -= 0.5f;
    h /= 2;
    SIMT_AT(oh, i, 5) = h;
    h = x;
    h++;
    ++h;
    h--;
    --h;
    SIMT_AT(oh, i, 6) = h;
    SIMT_AT(oh, i, 7) = -x;
    SIMT_AT(oh, i, 8) = x > hs ? x : hs;
    SIMT_AT(oh, i, 9) = mix(x, nb, 0.25f16);
    SIMT_AT(oh, i, 10) = sx + nb;
    SIMT_AT(oh, i, 11) = x * 1.5f16 + (_Float16)0.1;
    SIMT_AT(oh, i, 12) = (_Float16)1.00146484375f; /* constants, rounded by tilec: a float16 tie, to even */
    SIMT_AT(oh, i, 13) = (_Float16)4095u;          /* a tie too */
    SIMT_AT(oh, i, 14) = -(_Float16)70000;         /* overflow: -inf */

    SIMT_AT(ob, i, 0) = y * bs + y;
    SIMT_AT(ob, i, 1) = y / bs;
    SIMT_AT(ob, i, 2) = y - (__bf16)i * 3;
    SIMT_AT(ob, i, 3) = (__bf16)(i * 1000003);
    __bf16 z = y;
    z += 1;
    z *= bs;
    z -= 2.0;
    z /= 4;
    SIMT_AT(ob, i, 4) = z;
    z = y;
    z++;
    --z;
    z++;
    SIMT_AT(ob, i, 5) = z;
    SIMT_AT(ob, i, 6) = (__bf16)(float)x;
    SIMT_AT(ob, i, 7) = (__bf16)x;
    SIMT_AT(ob, i, 8) = sum4(y);
    SIMT_AT(ob, i, 9) = sy;
    SIMT_AT(ob, i, 10) = -y + (__bf16)nb;
    SIMT_AT(ob, i, 11) = y == sy ? y : -y;

    SIMT_AT(oi, i, 0) = x < hs;
    SIMT_AT(oi, i, 1) = x == nb;
    SIMT_AT(oi, i, 2) = x != nb;
    SIMT_AT(oi, i, 3) = (int)x;
    SIMT_AT(oi, i, 4) = y;
    SIMT_AT(oi, i, 5) = !y + 2 * (bool)x;
    int k = 3;
    k += x;
    SIMT_AT(oi, i, 6) = k;
    _Float16 p = x, q = p++;
    SIMT_AT(oi, i, 7) = (q == x) + 2 * (p == x + 1);
    SIMT_AT(oi, i, 8) = simt_popc(same);
    SIMT_AT(oi, i, 9) = y >= bs;
}

/* Atomics on narrow floats.  The sums add values whose partial sums are all
 * exact (multiples of 0.5 below 1024 in float16, integers up to 256 in
 * bfloat16), so they do not depend on the order; per block in shared memory
 * (static for float16, dynamic for bfloat16), then once per block, and
 * directly with the orders and scopes that take atomicAdd or a
 * compare-and-swap loop on the GPU.  hs[0..3], bs[0..3]: sum, sum again
 * (bfloat16: subtracted), max (min), nanmax (nanmin) over a NaN; thread 0
 * also exchanges hs[4] (old value in hs[5]), doubles it into hs[6] by a load
 * and a store, and compare-and-swaps bs[4] (old value in bs[5]). */
SIMT_KERNEL void narrow_atomics(TILE_ARRAY(const _Float16, 1) a, TILE_ARRAY(const __bf16, 1) b, TILE_ARRAY(_Float16, 1) hs,
                                TILE_ARRAY(__bf16, 1) bs)
{
    SIMT_SHARED _Float16 hblock;
    SIMT_SHARED extern __bf16 bblock[];
    int i = simt_tid(0), t = simt_thread_idx(0);
    if (t == 0) {
        hblock = 0;
        bblock[0] = 0;
    }
    simt_syncthreads();
    if (i < simt_shape(a, 0)) {
        simt_atomic_add(&hblock, a[i], .scope = TILE_SCOPE_BLOCK);
        simt_atomic_add(&hs[1], (float)a[i], .memory_order = TILE_SEQ_CST);
        simt_atomic_max(&hs[2], a[i]);
        simt_atomic_nanmax(&hs[3], a[i], .scope = TILE_SCOPE_SYSTEM);
    }
    if (i < simt_shape(b, 0)) {
        simt_atomic_add(&bblock[0], b[i], .scope = TILE_SCOPE_BLOCK, .memory_order = TILE_ACQ_REL);
        simt_atomic_sub(&bs[1], b[i]);
        simt_atomic_min(&bs[2], b[i], .scope = TILE_SCOPE_SYSTEM);
        simt_atomic_nanmin(&bs[3], b[i]);
    }
    simt_syncthreads();
    if (t == 0) {
        simt_atomic_add(&hs[0], hblock);
        simt_atomic_add(&bs[0], bblock[0], .scope = TILE_SCOPE_SYSTEM);
    }
    if (i == 0) {
        hs[5] = simt_atomic_exch(&hs[4], 2.5f16);
        simt_atomic_store(&hs[6], simt_atomic_load(&hs[4], .memory_order = TILE_ACQUIRE) * 2, .memory_order = TILE_RELEASE);
        bs[5] = simt_atomic_cas(&bs[4], 1, 7);
    }
}
