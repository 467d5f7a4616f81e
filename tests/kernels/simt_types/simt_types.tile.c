/* simt_types.tile.c: vectors and user structs in SIMT code (seed 001's
 * vector types and @struct classes): as kernel parameters by value (their
 * bytes cross the launcher and, on the GPU, the kernel's parameter buffer),
 * locals, shared arrays, fields of structs, arguments and results of SIMT
 * functions; lanes by .x .y .z .w and by index (constant and run-time);
 * construction by compound literals, designators and brace lists. */
#include "tilec.h"

/* seed 001's example: @struct(align=16) class complex: real, imag */
typedef struct SIMT_STRUCT_ALIGN(16) {
    float re, im;
} cplx;

struct body {
    float32x3 pos;     /* 12 bytes, aligned to 4, as CUDA's float3 */
    int32_t id;
    cplx phase;        /* 16-byte aligned: 12 bytes of padding before it */
    int16_t hist[3];
    int8x3 tag;
};

/* The product of two complex numbers. */
SIMT_FUNC cplx cmul(cplx a, cplx b)
{
    return (cplx){.im = a.re * b.im + a.im * b.re, .re = a.re * b.re - a.im * b.im};
}

/* v with lane k replaced by x (a run-time lane index). */
SIMT_FUNC float64x4 with_lane(float64x4 v, int k, double x)
{
    float64x4 r = v;
    r[k] = x;
    return r;
}

/* Row i of out (n x 8) from thread (i, j) of a 2-D launch with j == 0:
 *   0, 1: z^i (re, im), through a shared array of float32x2
 *   2: the sum of w's lanes times i, 3: d with lane i % 4 set to i, summed
 *   4: b.pos.y + i + b.hist[1] + b.id + b.phase.im + b.tag.z
 *   5: a local array of structs; 6: t.y (0); 7: the grid's x extent */
SIMT_KERNEL void vectors_structs(TILE_ARRAY(double, 2) out, cplx z, float32x4 w, float64x4 d, struct body b)
{
    int32x2 t = simt_tid2();
    int i = t.x, n = (int)simt_shape(out, 0);
    SIMT_SHARED float32x2 pow_[128];
    cplx p = {1.0f};   /* im is 0 */
    for (int k = 0; k < i; k++) p = cmul(p, z);
    pow_[simt_thread_idx(0)] = (float32x2){p.re, p.im};
    simt_syncthreads();
    if (i >= n) return;
    float32x2 mine = pow_[simt_thread_idx(0)];
    SIMT_AT(out, i, 0) = mine.x;
    SIMT_AT(out, i, 1) = mine[1];
    float32x4 s = w;
    for (int k = 0; k < 4; k++) s[k] *= (float)i;
    SIMT_AT(out, i, 2) = s.x + s.y + s[2] + s.w;
    float64x4 e = with_lane(d, i % 4, (double)i);
    SIMT_AT(out, i, 3) = e.x + e.y + e.z + e.w;
    struct body q = b;
    q.pos.y += (float)i;
    SIMT_AT(out, i, 4) = q.pos.y + q.hist[1] + q.id + q.phase.im + q.tag.z;
    struct body many[3] = {b, {.id = 7}, {{1.0f, 2.0f, 3.0f}, 5, {0.5f, 0.25f}, {1, 2, 3}, {4, 5, 6}}};
    many[1].pos = (float32x3){(float)i};
    struct body pick = i % 2 ? many[1] : many[2];
    SIMT_AT(out, i, 5) = pick.pos.x + pick.id + many[2].phase.re + many[2].hist[2] + many[2].tag[1] + many[0].id;
    SIMT_AT(out, i, 6) = t.y;
    int32x3 g = simt_grid_size3();
    SIMT_AT(out, i, 7) = g.x;
}

struct tally {
    uint32_t count;
    int32_t best;
    float sum, neg;
    int16_t pad[3];
};

/* Atomics on the fields of a shared struct (seed 001's atomic members), and the sizes SIMT code sees (CUDA's layouts):
 *   out[0] = threads, out[1] = the largest i, out[2] = sum of i, out[3] = -sum,
 *   out[4..7] = sizeof(struct body), _Alignof(struct body), sizeof(float32x3),
 *   sizeof(struct tally[3]). */
SIMT_KERNEL void struct_atomics(TILE_ARRAY(int64_t, 1) out, int32_t n)
{
    SIMT_SHARED struct tally t;
    int i = simt_thread_idx(0);
    if (i == 0) t = (struct tally){0, -1};
    simt_syncthreads();
    if (i < n) {
        simt_atomic_add(&t.count, 1u, .scope = TILE_SCOPE_BLOCK);
        simt_atomic_max(&t.best, i, .scope = TILE_SCOPE_BLOCK);
        simt_atomic_add(&t.sum, (float)i, .scope = TILE_SCOPE_BLOCK);
        simt_atomic_sub(&t.neg, (float)i, .scope = TILE_SCOPE_BLOCK);
    }
    simt_syncthreads();
    if (i == 0) {
        out[0] = t.count, out[1] = t.best, out[2] = (int64_t)t.sum, out[3] = (int64_t)t.neg;
        out[4] = sizeof(struct body), out[5] = _Alignof(struct body), out[6] = sizeof(float32x3);
        out[7] = sizeof(struct tally[3]);
    }
}

/* y = a * x + y on arrays of vectors (one 16-byte load and store per
 * element on the GPU), rank 1, and a rank-2 sum of int16x4 rows. */
SIMT_KERNEL void axpy4(TILE_ARRAY(const float32x4, 1) x, TILE_ARRAY(float32x4, 1) y, float a)
{
    int i = simt_tid(0);
    if (i >= (int)simt_shape(x, 0)) return;
    float32x4 u = x[i], v = y[i];
    for (int k = 0; k < 4; k++) v[k] += a * u[k];
    y[i] = v;
}

SIMT_KERNEL void row_sums(TILE_ARRAY(const int16x4, 2) m, TILE_ARRAY(int32_t, 1) out)
{
    int i = simt_tid(0);
    if (i >= (int)simt_shape(m, 0)) return;
    int s = 0;
    for (int j = 0; j < (int)simt_shape(m, 1); j++) {
        int16x4 r = SIMT_AT(m, i, j);
        s += r.x + r.y + r.z + r.w;
    }
    out[i] = s;
}

struct particle {
    float32x3 pos, vel;
    int32_t hits;
};

/* An array of structs (a uint8 descriptor whose last dimension is the
 * struct's 28 bytes): each particle moves by vel * dt, and counts in hits
 * how many particles of the array start left of it (atomics on a field of
 * a global array's element). */
SIMT_KERNEL void particles_step(TILE_ARRAY(struct particle, 1) ps, float dt)
{
    int i = simt_tid(0), n = (int)simt_shape(ps, 0);
    if (i >= n) return;
    float x0 = ps[i].pos.x;
    for (int j = 0; j < n; j++)
        if (ps[j].pos.x > x0) simt_atomic_add(&ps[j].hits, 1);
    simt_syncthreads();
    struct particle p = ps[i];
    p.pos = (float32x3){p.pos.x + p.vel.x * dt, p.pos.y + p.vel.y * dt, p.pos.z + p.vel.z * dt};
    ps[i].pos = p.pos;
}

/* seed 001's ticket_mutex: SIMT_ATOMIC fields (seed 001's Atomic), read and
 * written by atomics only. */
struct ticket_mutex {
    SIMT_ATOMIC(int32_t) line;
    SIMT_ATOMIC(int32_t) current;
};

SIMT_FUNC void lock(TILE_ARRAY(struct ticket_mutex, 1) m)
{
    int my = simt_atomic_add(&m[0].line, 1, .memory_order = TILE_ACQ_REL);
    while (simt_atomic_load(&m[0].current, .memory_order = TILE_ACQUIRE) != my) {
    }
}

SIMT_FUNC void unlock(TILE_ARRAY(struct ticket_mutex, 1) m)
{
    simt_atomic_add(&m[0].current, 1, .memory_order = TILE_RELEASE);
}

/* total[0] += block + 1 under the mutex (a plain read-modify-write, which
 * the lock orders); total[1 + block] = the block's threads, counted in a
 * shared SIMT_ATOMIC. */
SIMT_KERNEL void ticket_sum(TILE_ARRAY(struct ticket_mutex, 1) m, TILE_ARRAY(int64_t, 1) total)
{
    SIMT_SHARED SIMT_ATOMIC(uint32_t) arrivals;
    if (simt_thread_idx(0) == 0) simt_atomic_store(&arrivals, 0u, .scope = TILE_SCOPE_BLOCK);
    simt_syncthreads();
    simt_atomic_add(&arrivals, 1u, .scope = TILE_SCOPE_BLOCK);
    simt_syncthreads();
    if (simt_thread_idx(0) == 0) {
        total[1 + simt_block_idx(0)] = simt_atomic_load(&arrivals, .scope = TILE_SCOPE_BLOCK);
        lock(m);
        total[0] += simt_block_idx(0) + 1;
        unlock(m);
    }
}

/* float16 and bfloat16 lanes and fields. */
struct narrow_pair {
    _Float16 h;
    __bf16 b;
    bfloat16x4 w;
};

/* y[i] = (x[i].y * 2 + p.h, x[i].x - p.w[i % 4]) in float16 (each step
 * rounded, as __half's operators), z[i] = p.b + (float)x[i][i % 2] */
SIMT_KERNEL void narrow_vectors(TILE_ARRAY(const float16x2, 1) x, TILE_ARRAY(float16x2, 1) y, TILE_ARRAY(float, 1) z,
                                struct narrow_pair p)
{
    int i = simt_tid(0);
    if (i >= (int)simt_shape(x, 0)) return;
    float16x2 v = x[i];
    float16x4 pad = {v.x};
    float16x2 r = {v.y * (_Float16)2 + p.h, v.x - (_Float16)(float)p.w[i % 4]};
    y[i] = r;
    z[i] = (float)p.b + (float)v[i % 2] + (float)pad.y;
}

/* float8 bytes, converted explicitly (seed 001's float8e4m3 and float8e5m2):
 * y[i] = e5m2(e4m3 x[i] * 3), z[i] = lanes 1 + 3 of q[i] (float8e4m3x4) */
SIMT_KERNEL void fp8_convert(TILE_ARRAY(const tilec_fp8_e4m3, 1) x, TILE_ARRAY(tilec_fp8_e5m2, 1) y,
                             TILE_ARRAY(const float8e4m3x4, 1) q, TILE_ARRAY(float, 1) z)
{
    int i = simt_tid(0);
    if (i >= (int)simt_shape(x, 0)) return;
    y[i] = simt_fp8_e5m2_from_float(simt_fp8_e4m3_to_float(x[i]) * 3.0f);
    float8e4m3x4 w = q[i];
    z[i] = simt_fp8_e4m3_to_float(w.y) + simt_fp8_e4m3_to_float(w[3]);
}
