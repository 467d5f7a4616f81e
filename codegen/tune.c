/* tune.c: `tilec tune`: writes a self-contained tuning program for the
 * kernels with TILE_TUNABLE constants of a source: the kernels (launchers
 * taking the tunables as arguments, the grid worked out as usual), a table
 * of every variant (each combination of tunable values, with tilec's plan:
 * threads and shared memory, for pruning), the problems of the shapes file,
 * and the harness (tune_harness.c) that times them and prints a tuning file.
 * CUDA C++ for the cuda target, C17 for the host target (which lets the
 * whole flow be tested without a GPU). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/diag.h"

extern const char *const tune_harness_head, *const tune_harness_main;

int codegen_tune_bucket(int64_t n)
{
    int b = 0;
    while (b < 62 && ((int64_t)1 << b) < n) b++;
    return b;
}

static const Param *param_named(const Func *f, const char *s, size_t n)
{
    for (int i = 0; i < f->nparams; i++)
        if (strlen(f->params[i].name) == n && !strncmp(f->params[i].name, s, n)) return &f->params[i];
    return NULL;
}

/* One line of the shapes file for kernel f: extents of every array,
 * scalars (default 1), TILE_CONST values (default the first listed). */
typedef struct Shape_ {
    long long ext[64][8];
    double scal[64];
    long long cons[64];
} ShapeLine;

static bool parse_shape_line(const char *file, int ln, const char *line, const Func *f, ShapeLine *sl, bool *applies)
{
    bool seen[64] = {0};
    *applies = true;
    for (int i = 0; i < f->nparams; i++) {
        sl->scal[i] = 1;
        sl->cons[i] = f->params[i].kind == PARAM_CONST ? f->params[i].specs[0] : 0;
    }
    const char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t n = strcspn(p, "= \t");
        if (p[n] != '=') {
            diag_error((SrcLoc){.file = file, .line = ln, .col = (int)(p - line) + 1},
                       "expected NAME=VALUE (an array's extents like a=64x128, or a scalar's value)");
            return false;
        }
        const Param *pa = param_named(f, p, n);
        const char *v = p + n + 1, *v0 = v;
        size_t vn = strcspn(v, " \t");
        if (!pa) { /* a name of another kernel: the line is not for f */
            *applies = false;
            return true;
        }
        int i = (int)(pa - f->params);
        char *end;
        errno = 0;
        if (pa->kind == PARAM_ARRAY) {
            int d = 0;
            for (;;) {
                long long x = strtoll(v, &end, 10);
                if (end == v || x < 0 || d == pa->rank) break;
                sl->ext[i][d++] = x;
                v = end;
                if (*v != 'x') break;
                v++;
            }
            if (d != pa->rank || (*v && *v != ' ' && *v != '\t')) {
                diag_error((SrcLoc){.file = file, .line = ln, .col = (int)(v - line) + 1},
                           "%s: expected %d extents like 64x128 (array of rank %d)", pa->name, pa->rank, pa->rank);
                return false;
            }
            seen[i] = true;
        } else if (pa->kind == PARAM_SCALAR) {
            sl->scal[i] = strtod(v, &end);
            if (end != v + vn) {
                diag_error((SrcLoc){.file = file, .line = ln, .col = (int)(v - line) + 1}, "%s: expected a number", pa->name);
                return false;
            }
        } else {
            sl->cons[i] = strtoll(v, &end, 10);
            if (end != v + vn || pa->tunable) {
                diag_error((SrcLoc){.file = file, .line = ln, .col = (int)(v - line) + 1},
                           pa->tunable ? "%s: a tunable constant is what the program measures; leave it out"
                                       : "%s: expected an integer",
                           pa->name);
                return false;
            }
            /* A value f is not compiled for: the line is for another kernel
             * with parameters of the same names (softmax_f32's BN=4096 and
             * softmax_f16's BN=8192 in one shapes file). */
            bool listed = false;
            for (int k = 0; k < pa->nspecs; k++) listed |= pa->specs[k] == sl->cons[i];
            if (!listed) {
                *applies = false;
                return true;
            }
        }
        p = v0 + vn;
    }
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].kind == PARAM_ARRAY && !seen[i]) *applies = false;
    return true;
}

bool codegen_tune(Program *p, const CodegenOptions *co, bool cuda, const char *shapes, FILE *o)
{
    CodegenOptions c2 = *co;
    c2.tune_explicit = true;
    c2.line_directives = false; /* the harness follows the kernels in the same file */
    c2.header_name = "tilec_tune_header_.h";
    char *hdr = NULL, *code = NULL;
    size_t hl = 0, cl = 0;
    FILE *m = open_memstream(&hdr, &hl);
    bool ok = m && codegen_header(p, &c2, m);
    if (m) fclose(m);
    m = open_memstream(&code, &cl);
    ok = ok && m && (cuda ? codegen_cuda(p, &c2, m) : codegen_host(p, &c2, m));
    if (m) fclose(m);
    if (!ok) {
        free(hdr);
        free(code);
        return false;
    }
    fprintf(o, "/* Tuning program generated by tilec " TILEC_VERSION " from %s (tilec tune).  Build it\n"
               " * with the tilec runtime and run it on the machine to tune for:\n",
            co->source_name ? emit_base_name(co->source_name) : "(stdin)");
    if (cuda) fputs(" *     nvcc -O3 -arch=sm_XX -Iinclude/tilec tune.cu libtilec_rt.a -o tune && ./tune tuning.txt\n", o);
    else fputs(" *     cc -O2 -Iinclude/tilec tune.c libtilec_rt.a -lm -o tune && ./tune tuning.txt\n", o);
    fprintf(o, " * It writes the tuning file for tilec --tuning (docs/cli.md). */\n"
               "#if !defined(_POSIX_C_SOURCE) && !defined(__CUDACC__)\n#define _POSIX_C_SOURCE 200809L /* clock_gettime */\n#endif\n"
               "#define TILEC_TUNE_CUDA %d\n"
               "#define TILEC_TUNE_VERSION \"" TILEC_VERSION "\"\n",
            cuda);
    /* the kernels, with the header where the code includes it */
    const char *inc = strstr(code, "#include \"tilec_tune_header_.h\"\n");
    if (inc) {
        fwrite(code, 1, (size_t)(inc - code), o);
        fputs(hdr, o);
        fputs(inc + strlen("#include \"tilec_tune_header_.h\"\n"), o);
    } else {
        fputs(code, o);
    }
    free(hdr);
    free(code);
    fputs(tune_harness_head, o);

    /* the kernels' tables and call wrappers */
    FILE *in = fopen(shapes, "r");
    if (!in) {
        fprintf(stderr, "tilec: error: --shapes: cannot read '%s': %s\n", shapes, strerror(errno));
        return false;
    }
    char *lines[1024];
    int lnos[1024], nlines = 0;
    char *buf = NULL;
    size_t cap = 0;
    int ln = 0;
    while (getline(&buf, &cap, in) >= 0) {
        ln++;
        char *h = strchr(buf, '#');
        if (h) *h = '\0';
        size_t n = strlen(buf);
        while (n && isspace((unsigned char)buf[n - 1])) buf[--n] = '\0';
        char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || nlines == 1024) continue;
        lnos[nlines] = ln;
        lines[nlines++] = strdup(s);
    }
    free(buf);
    fclose(in);

    int nshapes = 0;
    char *shapetab = NULL;
    size_t stl = 0;
    FILE *st = open_memstream(&shapetab, &stl);
    for (int fi = 0; fi < p->nfuncs && ok; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel || f->internal || !emit_has_tunable(f)) continue;
        int narr = 0, ntun = 0;
        for (int i = 0; i < f->nparams; i++) {
            narr += f->params[i].kind == PARAM_ARRAY;
            ntun += f->params[i].tunable;
        }
        const char *n = f->name;
        fprintf(o, "\nstatic tilec_status tune_call_%s_(tilec_stream s_, const tilec_array *a_, const double *sc_, "
                   "const long long *cs_, const long long *tv_)\n{\n    (void)sc_, (void)cs_;\n    return ",
                n);
        emit_launcher_name(o, co, f);
        fputs("(s_", o);
        for (int i = 0, a = 0, t = 0; i < f->nparams; i++) {
            const Param *pa = &f->params[i];
            if (pa->kind == PARAM_ARRAY) fprintf(o, ", &a_[%d]", a++);
            else if (pa->tunable) fprintf(o, ", (%s)tv_[%d]", emit_scalar_api_type(pa->type.dtype), t++);
            else if (pa->kind == PARAM_CONST) fprintf(o, ", (%s)cs_[%d]", emit_scalar_api_type(pa->type.dtype), i);
            else fprintf(o, ", (%s)sc_[%d]", emit_scalar_api_type(pa->type.dtype), i);
        }
        fputs(");\n}\n", o);
        fprintf(o, "static const int tune_dtype_%s_[] = {", n);
        for (int i = 0, a = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_ARRAY) fprintf(o, "%s%s", a++ ? ", " : "", emit_dtype_enum(f->params[i].type.dtype));
        fprintf(o, "};\nstatic const int tune_rank_%s_[] = {", n);
        for (int i = 0, a = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_ARRAY) fprintf(o, "%s%d", a++ ? ", " : "", f->params[i].rank);
        fprintf(o, "};\nstatic const int tune_written_%s_[] = {", n);
        for (int i = 0, a = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_ARRAY) fprintf(o, "%s%d", a++ ? ", " : "", !f->params[i].readonly);
        fprintf(o, "};\nstatic const char *const tune_arr_%s_[] = {", n);
        for (int i = 0, a = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_ARRAY) fprintf(o, "%s\"%s\"", a++ ? ", " : "", f->params[i].name);
        fprintf(o, "};\nstatic const char *const tune_tun_%s_[] = {", n);
        for (int i = 0, t = 0; i < f->nparams; i++)
            if (f->params[i].tunable) fprintf(o, "%s\"%s\"", t++ ? ", " : "", f->params[i].name);
        fputs("};\n", o);

        /* every shape line that names all of f's arrays */
        ShapeLine *sl = calloc(1, sizeof *sl);
        int mine = 0;
        int (*keys)[TUNE_MAX_KEY] = calloc((size_t)nlines + 1, sizeof *keys), *key_line = calloc((size_t)nlines + 1, sizeof *key_line);
        /* The non-tunable constants of f's first line: the variants' plans
         * (threads, shared memory, kernel) are taken at those values. */
        long long cons0[64];
        for (int i = 0; i < f->nparams && i < 64; i++)
            cons0[i] = f->params[i].kind == PARAM_CONST ? f->params[i].specs[0] : 0;
        for (int l = 0; l < nlines && ok; l++) {
            bool applies;
            if (!parse_shape_line(shapes, lnos[l], lines[l], f, sl, &applies)) {
                ok = false;
                break;
            }
            if (!applies) continue;
            /* The launcher's table is keyed by the buckets of the extents
             * (ceil(log2)); a second shape in a bucket would be measured for
             * nothing (--tuning keeps the first and warns too). */
            int nk = 0;
            for (int i = 0; i < f->nparams && i < 64; i++)
                if (f->params[i].kind == PARAM_ARRAY)
                    for (int d = 0; d < f->params[i].rank && d < 8 && nk < TUNE_MAX_KEY; d++)
                        keys[mine][nk++] = codegen_tune_bucket(sl->ext[i][d]);
            int clash = -1;
            for (int k = 0; k < mine && clash < 0; k++)
                if (!memcmp(keys[k], keys[mine], sizeof(int) * (size_t)nk)) clash = k;
            if (clash >= 0)
                diag_warning("tuning-bucket", (SrcLoc){.file = shapes, .line = lnos[l], .col = 1},
                             "for kernel '%s' this shape falls into the same bucket as the one of line %d (each extent "
                             "rounded up to a power of two): the launcher can dispatch to only one of them",
                             n, key_line[clash]);
            key_line[mine] = lnos[l];
            if (!mine) memcpy(cons0, sl->cons, sizeof cons0);
            fprintf(o, "static const long long tune_ext_%s_%d_[] = {", n, mine);
            for (int i = 0, a = 0; i < f->nparams; i++)
                if (f->params[i].kind == PARAM_ARRAY)
                    for (int d = 0; d < 8; d++) fprintf(o, "%s%lld", a++ ? ", " : "", d < f->params[i].rank ? sl->ext[i][d] : 0);
            fprintf(o, "};\nstatic const double tune_sc_%s_%d_[] = {", n, mine);
            for (int i = 0; i < f->nparams; i++) fprintf(o, "%s%.17g", i ? ", " : "", sl->scal[i]);
            fprintf(o, "};\nstatic const long long tune_cs_%s_%d_[] = {", n, mine);
            for (int i = 0; i < f->nparams; i++) fprintf(o, "%s%lld", i ? ", " : "", sl->cons[i]);
            fputs("};\n", o);
            fprintf(st, "    {&tune_k_%s_, \"", n);
            for (const char *c = lines[l]; *c; c++) fputc(*c == '"' || *c == '\\' ? ' ' : *c == '\t' ? ' ' : *c, st);
            fprintf(st, "\", tune_ext_%s_%d_, tune_sc_%s_%d_, tune_cs_%s_%d_},\n", n, mine, n, mine, n, mine);
            mine++;
            nshapes++;
        }
        /* the variants: every combination of the tunables, the other
         * constants at the first shape's values (their plan) */
        int nvar = 0;
        char *vt = NULL, *th = NULL, *sm = NULL, *fp = NULL;
        size_t vtl = 0, thl = 0, sml = 0, fpl = 0;
        FILE *fv = open_memstream(&vt, &vtl), *ft = open_memstream(&th, &thl), *fs = open_memstream(&sm, &sml);
        FILE *ff = open_memstream(&fp, &fpl);
        /* spec: the specialization's number, as codegen_cuda names its
         * kernel (tilec_k_NAME_spec), for the program's register query. */
        for (int spec = 0; spec < f->nspecs; spec++) {
            const int64_t *vals = f->specs[spec].vals;
            bool base = true; /* the non-tunable constants at their first value */
            for (int i = 0, c = 0; i < f->nparams; i++) {
                if (f->params[i].kind != PARAM_CONST) continue;
                if (!f->params[i].tunable && vals[c] != cons0[i]) base = false;
                c++;
            }
            if (!base) continue;
            KernelPlan plan = emit_plan(f->specs[spec].typed, cuda, co->max_threads);
            for (int i = 0, c = 0; i < f->nparams; i++) {
                if (f->params[i].kind != PARAM_CONST) continue;
                if (f->params[i].tunable) fprintf(fv, "%" PRId64 ", ", vals[c]);
                c++;
            }
            fprintf(ft, "%d, ", plan.threads);
            if (cuda) fprintf(ff, "(const void *)tilec_k_%s_%d<true>, ", n, spec);
            else fputs("NULL, ", ff);
            fprintf(fs, "%d, ", cuda ? plan.smem_bytes + plan.dyn_smem_bytes : 0);
            nvar++;
        }
        fclose(fv), fclose(ft), fclose(fs), fclose(ff);
        fprintf(o, "static const long long tune_var_%s_[] = {%s};\nstatic const int tune_threads_%s_[] = {%s};\n"
                   "static const int tune_smem_%s_[] = {%s};\nstatic const void *const tune_fn_%s_[] = {%s};\n",
                n, vt, n, th, n, sm, n, fp);
        free(vt), free(th), free(sm), free(fp);
        /* A kernel that no line is for is measured for nothing: say so (its
         * tables stay, unused: hence the attribute, for -Werror builds). */
        if (!mine)
            diag_warning("tuning-kernel", f->loc, "no line of %s is for kernel '%s' (it names the arrays and the "
                         "TILE_CONST values of none); it is not tuned", shapes, n);
        fprintf(o, "__attribute__((unused)) static const tune_kernel_ tune_k_%s_ = {\"%s\", %d, %d, tune_dtype_%s_, tune_rank_%s_, tune_written_%s_,\n"
                   "    tune_arr_%s_, tune_tun_%s_, %d, tune_var_%s_, tune_threads_%s_, tune_smem_%s_, tune_fn_%s_, "
                   "tune_call_%s_};\n",
                n, n, narr, ntun, n, n, n, n, n, nvar, n, n, n, n, n);
        free(sl);
        free(keys);
        free(key_line);
    }
    fclose(st);
    for (int l = 0; l < nlines; l++) free(lines[l]);
    if (ok && !nshapes) {
        fprintf(stderr, "tilec: error: --shapes: no line of '%s' names every array of a kernel with TILE_TUNABLE constants\n",
                shapes);
        ok = false;
    }
    if (ok) {
        fprintf(o, "\nstatic const tune_shape_ tune_shapes_[] = {\n%s};\n\n", shapetab);
        fputs(tune_harness_main, o);
    }
    free(shapetab);
    return ok;
}
