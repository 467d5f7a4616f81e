/* tuning.c: reads tuning files (--tuning FILE, written by the program that
 * `tilec tune` generates; format in docs/cli.md) into the TuneEntry tables
 * the launchers of kernels with TILE_TUNABLE constants are compiled with.
 *
 *   # tilec tuning file
 *   tilec 0.1.0
 *   device NVIDIA H100 80GB HBM3
 *   cc 90
 *   driver 12040
 *   kernel matmul shape a=4096x4096 b=4096x4096 c=4096x4096 -> BM=128 BN=128  # 512.3 us
 *   default matmul BM=64 BN=128
 *
 * Shapes may name scalars too (eps=1e-5); the table is keyed by the array
 * extents only. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/tuning.h"
#include "frontend/diag.h"

static SrcLoc at(const char *file, int line, const char *start, const char *p)
{
    return (SrcLoc){.file = file, .line = line, .col = (int)(p - start) + 1};
}

static const char *skip(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* a word up to blank, '=' or end */
static size_t word(const char *p)
{
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '=') n++;
    return n;
}

static const Func *find_kernel(const Program *p, const char *name, size_t n)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->is_kernel && strlen(p->funcs[i]->name) == n && !strncmp(p->funcs[i]->name, name, n))
            return p->funcs[i];
    return NULL;
}

static const Param *find_param(const Func *f, const char *name, size_t n)
{
    for (int i = 0; i < f->nparams; i++)
        if (strlen(f->params[i].name) == n && !strncmp(f->params[i].name, name, n)) return &f->params[i];
    return NULL;
}

/* "BN=128 BM=64" into e->val, every tunable of f named once */
static bool parse_values(const char *file, int ln, const char *line, const char *p, const Func *f, TuneEntry *e)
{
    bool seen[16] = {0};
    int nt = 0;
    for (int i = 0; i < f->nparams; i++) nt += f->params[i].tunable;
    e->nval = nt;
    for (p = skip(p); *p; p = skip(p)) {
        size_t n = word(p);
        const Param *pa = find_param(f, p, n);
        if (!pa || !pa->tunable || p[n] != '=') {
            diag_error(at(file, ln, line, p), "'%.*s' is not a TILE_TUNABLE constant of kernel '%s'", (int)n, p, f->name);
            return false;
        }
        int t = 0;
        for (int i = 0; &f->params[i] != pa; i++) t += f->params[i].tunable;
        const char *v = p + n + 1;
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        bool listed = false;
        for (int k = 0; k < pa->nspecs; k++) listed |= pa->specs[k] == x;
        if (end == v || errno || (*end && *end != ' ' && *end != '\t') || !listed) {
            diag_error(at(file, ln, line, v), "%s=%.*s: not one of the values %s lists", pa->name, (int)strcspn(v, " \t"), v,
                       pa->name);
            return false;
        }
        e->val[t] = x;
        seen[t] = true;
        p = end;
    }
    for (int i = 0, t = 0; i < f->nparams; i++)
        if (f->params[i].tunable && !seen[t++]) {
            diag_error(at(file, ln, line, p), "no value for tunable constant '%s' of kernel '%s'", f->params[i].name, f->name);
            return false;
        }
    return true;
}

/* "a=4096x4096 b=64 eps=1e-5" up to "->": the bucket of every array extent */
static bool parse_shape(const char *file, int ln, const char *line, const char **pp, const Func *f, TuneEntry *e)
{
    int64_t ext[64][TILE_MAX_RANK];
    bool seen[64] = {0};
    const char *p = skip(*pp);
    while (*p && strncmp(p, "->", 2)) {
        size_t n = word(p);
        const Param *pa = find_param(f, p, n);
        if (!pa || pa->tunable || p[n] != '=') {
            diag_error(at(file, ln, line, p), "'%.*s' is not an array, scalar or TILE_CONST parameter of kernel '%s'", (int)n, p, f->name);
            return false;
        }
        const char *v = p + n + 1;
        if (pa->kind != PARAM_ARRAY) { /* scalars and TILE_CONST values: not in the key */
            p = skip(v + strcspn(v, " \t"));
            continue;
        }
        int ai = (int)(pa - f->params), d = 0;
        for (;;) {
            char *end;
            errno = 0;
            long long x = strtoll(v, &end, 10);
            if (end == v || errno || x < 0 || d == pa->rank) {
                diag_error(at(file, ln, line, v), "%s: expected %d extents like 64x128 (array of rank %d)", pa->name, pa->rank,
                           pa->rank);
                return false;
            }
            ext[ai][d++] = x;
            v = end;
            if (*v != 'x') break;
            v++;
        }
        if (d != pa->rank || (*v && *v != ' ' && *v != '\t')) {
            diag_error(at(file, ln, line, v), "%s: expected %d extents like 64x128 (array of rank %d)", pa->name, pa->rank,
                       pa->rank);
            return false;
        }
        seen[ai] = true;
        p = skip(v);
    }
    if (strncmp(p, "->", 2)) {
        diag_error(at(file, ln, line, p), "expected '-> NAME=VALUE ...' after the shape");
        return false;
    }
    e->nkey = 0;
    for (int i = 0; i < f->nparams; i++) {
        const Param *pa = &f->params[i];
        if (pa->kind != PARAM_ARRAY) continue;
        if (!seen[i]) {
            diag_error(at(file, ln, line, p), "the shape names no extents for array '%s'", pa->name);
            return false;
        }
        for (int d = 0; d < pa->rank && e->nkey < TUNE_MAX_KEY; d++) e->key[e->nkey++] = codegen_tune_bucket(ext[i][d]);
    }
    *pp = p + 2;
    return true;
}

bool tuning_load(const char *file, const Program *p, const int *archs, int narchs, TuneEntry **entries, int *n)
{
    /* what is compiled for, as -Wtuning-device names it: the host, or --arch's list */
    int arch = narchs ? archs[narchs - 1] : 0;
    char list[96] = "";
    for (int i = 0; i < narchs; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%ssm_%d", i ? "," : "", archs[i]);
    FILE *in = fopen(file, "r");
    if (!in) {
        fprintf(stderr, "tilec: error: --tuning: cannot read '%s': %s\n", file, strerror(errno));
        return false;
    }
    bool ok = true;
    int cc = -1, ln = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        ln++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        for (char *c = line + strlen(line); c > line && isspace((unsigned char)c[-1]);) *--c = '\0';
        const char *s = skip(line);
        if (!*s) continue;
        size_t w = word(s);
        const char *rest = skip(s + w);
        if (w == 5 && !strncmp(s, "tilec", 5)) {
            if (strcmp(rest, TILEC_VERSION))
                diag_warning("tuning-device", at(file, ln, line, rest), "tuning file written by tilec %s; this is tilec " TILEC_VERSION,
                             rest);
            continue;
        }
        if ((w == 6 && !strncmp(s, "device", 6)) || (w == 6 && !strncmp(s, "driver", 6))) continue;
        if (w == 2 && !strncmp(s, "cc", 2)) {
            char *end;
            long v = strtol(rest, &end, 10);
            if (end == rest || *end || v < 0) {
                diag_error(at(file, ln, line, rest), "cc: expected the compute capability as a number (90 for sm_90; 0 for the host)");
                ok = false;
                continue;
            }
            cc = (int)v;
            bool listed = !narchs && !cc;
            for (int i = 0; i < narchs; i++) listed |= archs[i] == cc;
            if (!listed) {
                if (!arch)
                    diag_warning("tuning-device", at(file, ln, line, rest),
                                 "tuning file measured on a device of compute capability %d; compiling for the host", cc);
                else if (!cc)
                    diag_warning("tuning-device", at(file, ln, line, rest),
                                 "tuning file measured on the host (cc 0); compiling for %s", list);
                else
                    diag_warning("tuning-device", at(file, ln, line, rest),
                                 "tuning file measured on a device of compute capability %d; compiling for %s", cc, list);
            }
            continue;
        }
        bool is_kernel = w == 6 && !strncmp(s, "kernel", 6), is_default = w == 7 && !strncmp(s, "default", 7);
        if (!is_kernel && !is_default) {
            diag_error(at(file, ln, line, s), "unknown line '%.*s' (expected tilec, device, cc, driver, kernel or default)",
                       (int)w, s);
            ok = false;
            continue;
        }
        size_t kn = word(rest);
        if (!kn) {
            diag_error(at(file, ln, line, rest), "expected a kernel name");
            ok = false;
            continue;
        }
        const Func *f = find_kernel(p, rest, kn);
        bool tunable = false;
        for (int i = 0; f && i < f->nparams; i++) tunable |= f->params[i].tunable;
        if (!f || !tunable) {
            diag_warning("tuning-kernel", at(file, ln, line, rest), "%s '%.*s' with TILE_TUNABLE constants; line ignored",
                         f ? "kernel has no" : "no kernel", (int)kn, rest);
            continue;
        }
        TuneEntry e = {.kernel = f->name, .is_default = is_default, .cc = cc < 0 ? 0 : cc, .file = file, .line = ln};
        const char *q = skip(rest + kn), *shape_at = q;
        if (is_kernel) {
            if (strncmp(q, "shape", 5) || (q[5] != ' ' && q[5] != '\t')) {
                diag_error(at(file, ln, line, q), "expected 'shape NAME=EXTENTS ... -> NAME=VALUE ...'");
                ok = false;
                continue;
            }
            q += 5;
            if (!parse_shape(file, ln, line, &q, f, &e)) {
                ok = false;
                continue;
            }
        }
        if (!parse_values(file, ln, line, q, f, &e)) {
            ok = false;
            continue;
        }
        /* The launcher keys its table by the buckets of the extents: two shapes
         * in one bucket (8192x5000 and 8192x8192) cannot both be dispatched to.
         * The first line read wins, and the user hears that the other's
         * measurement is lost. */
        const TuneEntry *same = NULL;
        for (int i = 0; is_kernel && i < *n && !same; i++) {
            const TuneEntry *o = &(*entries)[i];
            if (!o->is_default && o->kernel == e.kernel && o->cc == e.cc && o->nkey == e.nkey &&
                !memcmp(o->key, e.key, sizeof(int) * (size_t)e.nkey))
                same = o;
        }
        if (same) {
            if (same->nval != e.nval || memcmp(same->val, e.val, sizeof(int64_t) * (size_t)e.nval))
                diag_warning("tuning-bucket", at(file, ln, line, shape_at),
                             "this shape falls into the same bucket as the one of %s:%d (each extent rounded up to a "
                             "power of two), whose values the launcher uses; line ignored",
                             same->file, same->line);
            continue;
        }
        TuneEntry *grown = realloc(*entries, sizeof **entries * (size_t)(*n + 1));
        if (!grown) {
            ok = false;
            break;
        }
        *entries = grown;
        (*entries)[(*n)++] = e;
    }
    free(line);
    fclose(in);
    return ok;
}
