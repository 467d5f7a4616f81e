/* targetset.c: target descriptions as bit sets over the host, the known CUDA
 * architectures and a bucket for later ones (see targetset.h), and the #if
 * conditions they compile to. */
#include "sema/targetset.h"

#include <stdio.h>
#include <string.h>

#include "frontend/ast.h"
#include "frontend/diag.h"

/* Every architecture __CUDA_ARCH__ can be today, in order.  A new one is a
 * new entry here (its bucket then splits off the later-bucket). */
const int targetset_archs[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121};
const int targetset_narchs = (int)(sizeof targetset_archs / sizeof targetset_archs[0]);

static TargetSet arch_bit(int i) { return (TargetSet)1 << (i + 1); }
static TargetSet later_bit(void) { return arch_bit(targetset_narchs); }

TargetSet targetset_devices(void) { return (later_bit() << 1) - 2; }
TargetSet targetset_all(void) { return targetset_devices() | TARGETSET_HOST; }

static int arch_index(int sm)
{
    for (int i = 0; i < targetset_narchs; i++)
        if (targetset_archs[i] == sm) return i;
    return -1;
}

bool targetset_known_arch(int sm) { return arch_index(sm) >= 0; }

TargetSet targetset_exactly(int sm)
{
    int i = arch_index(sm);
    return i < 0 ? 0 : arch_bit(i);
}

TargetSet targetset_provides(int sm)
{
    int i = arch_index(sm);
    if (i < 0) return 0;
    return targetset_devices() & ~(arch_bit(i) - 1);
}

bool targetset_has_arch(TargetSet s, int sm)
{
    if (sm == 0) return s & TARGETSET_HOST;
    /* the bucket whose range holds sm */
    int b = -1;
    for (int i = 0; i < targetset_narchs; i++)
        if (targetset_archs[i] <= sm) b = i;
    if (b < 0) return false; /* before the first known architecture */
    if (b == targetset_narchs - 1 && sm > targetset_archs[b]) b = targetset_narchs;
    return s & arch_bit(b);
}

/* Appends to buf (always terminated). */
static void add(char *buf, size_t len, const char *fmt, int a, int b)
{
    size_t n = strlen(buf);
    if (n + 1 < len) snprintf(buf + n, len - n, fmt, a, b);
}

/* Calls f for each maximal run [lo, hi] of consecutive device buckets in s
 * (bucket narchs is the later-bucket). */
static void for_runs(TargetSet s, void (*f)(int lo, int hi, char *buf, size_t len, int *n), char *buf, size_t len,
                     int *n)
{
    for (int i = 0; i <= targetset_narchs; i++) {
        if (!(s & arch_bit(i))) continue;
        int j = i;
        while (j + 1 <= targetset_narchs && (s & arch_bit(j + 1))) j++;
        f(i, j, buf, len, n);
        i = j;
    }
}

static void cond_run(int lo, int hi, char *buf, size_t len, int *n)
{
    if ((*n)++) add(buf, len, " || ", 0, 0);
    bool low = lo > 0, high = hi < targetset_narchs;
    add(buf, len, "(defined(__CUDA_ARCH__)", 0, 0);
    if (low) add(buf, len, " && __CUDA_ARCH__ >= %d", targetset_archs[lo] * 10, 0);
    if (high) add(buf, len, " && __CUDA_ARCH__ < %d", targetset_archs[hi + 1] * 10, 0);
    add(buf, len, ")", 0, 0);
}

void targetset_cuda_condition(TargetSet s, char *buf, size_t len)
{
    buf[0] = 0;
    s &= targetset_all();
    if (s == 0) { add(buf, len, "0", 0, 0); return; }
    if (s == targetset_all()) { add(buf, len, "1", 0, 0); return; }
    int n = 0;
    if (s & TARGETSET_HOST) add(buf, len, "!defined(__CUDA_ARCH__)", 0, 0), n++;
    for_runs(s, cond_run, buf, len, &n);
}

static void describe_run(int lo, int hi, char *buf, size_t len, int *n)
{
    if ((*n)++) add(buf, len, " | ", 0, 0);
    if (lo == targetset_narchs) add(buf, len, "sm_%d+ (later)", targetset_archs[targetset_narchs - 1] + 1, 0);
    else if (hi == targetset_narchs) add(buf, len, "sm_%d+", targetset_archs[lo], 0);
    else if (lo == hi) add(buf, len, "sm_%d", targetset_archs[lo], 0);
    else add(buf, len, "sm_%d..sm_%d", targetset_archs[lo], targetset_archs[hi]);
}

void targetset_describe(TargetSet s, char *buf, size_t len)
{
    buf[0] = 0;
    s &= targetset_all();
    if (s == 0) { add(buf, len, "no target", 0, 0); return; }
    if (s == targetset_all()) { add(buf, len, "any target", 0, 0); return; }
    int n = 0;
    if (s & TARGETSET_HOST) add(buf, len, "host", 0, 0), n++;
    if ((s & targetset_devices()) == targetset_devices()) {
        add(buf, len, n ? " | device" : "device", 0, 0);
        return;
    }
    for_runs(s, describe_run, buf, len, &n);
}

/* An architecture argument's value: a literal, or a constant sema folded. */
static bool arch_value(const Expr *x, int64_t *v)
{
    if (x->kind == EX_INT) *v = x->ival;
    else if (x->is_const && !x->cval.is_float) *v = x->cval.i;
    else return false;
    return true;
}

static bool eval(const Expr *e, TargetSet *out, const Expr **bad, bool *unknown_arch)
{
    TargetSet a, b;
    *bad = e;
    switch (e->kind) {
    case EX_UNARY:
        if (e->op != UOP_BITNOT && e->op != UOP_NOT) return false;
        if (!eval(e->a, &a, bad, unknown_arch)) return false;
        *out = targetset_all() & ~a;
        return true;
    case EX_BINARY:
        if (e->op != BOP_OR && e->op != BOP_AND && e->op != BOP_XOR) return false;
        if (!eval(e->a, &a, bad, unknown_arch) || !eval(e->b, &b, bad, unknown_arch)) return false;
        *out = e->op == BOP_OR ? a | b : e->op == BOP_AND ? a & b : a ^ b;
        return true;
    case EX_BUILTIN:
        switch (e->bi) {
        case BI_IS_HOST: *out = TARGETSET_HOST; return true;
        case BI_IS_DEVICE: *out = targetset_devices(); return true;
        case BI_ANY_TARGET: *out = targetset_all(); return true;
        case BI_NO_TARGET: *out = 0; return true;
        case BI_PROVIDES: case BI_IS_EXACTLY: {
            const Expr *x = e->nargs == 1 ? e->args[0] : NULL;
            int64_t v;
            if (!x || !arch_value(x, &v)) {
                *bad = x ? x : e;
                return false;
            }
            if (!targetset_known_arch((int)v) || v != (int)v) {
                *bad = x;
                *unknown_arch = true;
                return false;
            }
            *out = e->bi == BI_PROVIDES ? targetset_provides((int)v) : targetset_exactly((int)v);
            return true;
        }
        default: return false;
        }
    default: return false;
    }
}

bool targetset_eval(const Expr *desc, TargetSet *out)
{
    const Expr *bad;
    bool unknown = false;
    if (eval(desc, out, &bad, &unknown)) return true;
    if (unknown) {
        char known[256] = "";
        for (int i = 0; i < targetset_narchs; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%d", i ? ", " : "", targetset_archs[i]);
        int64_t v = 0;
        arch_value(bad, &v);
        diag_error_fix(bad->loc, "write TILE_SM_90 (or 90) for sm_90", "%lld is not a CUDA architecture tilec knows (%s)",
                       (long long)v, known);
    } else {
        diag_error_fix(bad->loc,
                       "build it from tile_provides(TILE_SM_XX), tile_is_exactly(TILE_SM_XX), tile_is_host, "
                       "tile_is_device, tile_any_target and tile_no_target with |, & and ~",
                       "this is not a target description");
    }
    return false;
}
