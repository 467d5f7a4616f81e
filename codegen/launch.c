/* launch.c: the pieces of a launch function that cuda.c, host.c, header.c
 * and python.c share: its name (--symbol-prefix, --rename) and prototype,
 * how scalars cross the C API, the argument checks every launcher runs
 * before anything else (the dtype enumerators they name come from the
 * shared dtype list, runtime/tilec_dtypes.h), and the dispatch tables of
 * TILE_TUNABLE constants (--tuning). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/emit.h"
#include "frontend/diag.h"
#include "sema/layout.h"
#include "tilec_fp.h"

const char *emit_scalar_api_type(Dtype d)
{
    switch (d) {
    case DT_FLOAT16: case DT_BFLOAT16: case DT_TFLOAT32: case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E5M2: return "float";
    default: return dtype_host_type(d);
    }
}

/* "TILEC_BOOL" ... "TILEC_FLOAT8_E5M2": the runtime's enumerator of each
 * listed dtype (TILEC_DTYPE_LIST, runtime/tilec_dtypes.h; DT_X == TILEC_X is
 * asserted in sema/dtype.c); NULL for the compiler-only kinds. */
#define DTYPE_ENUM_(suffix, name, bits) [DT_##suffix] = "TILEC_" #suffix,
static const char *const dtype_enums[DT_COUNT] = {TILEC_DTYPE_LIST(DTYPE_ENUM_)};
#undef DTYPE_ENUM_

const char *emit_dtype_enum(Dtype d)
{
    return d > DT_INVALID && d < DT_COUNT && dtype_enums[d] ? dtype_enums[d] : "TILEC_DTYPE_INVALID";
}

/* A scalar parameter as the kernel receives it: narrow float types passed
 * as float are rounded to the parameter's type here, once per launch. */
void emit_scalar_arg(FILE *o, const Param *p)
{
    switch (p->type.dtype) {
    case DT_FLOAT16: fprintf(o, "tilec_rnd_f16(%s)", p->name); break;
    case DT_BFLOAT16: fprintf(o, "tilec_rnd_bf16(%s)", p->name); break;
    case DT_TFLOAT32: fprintf(o, "tilec_st_tf32(%s)", p->name); break;
    case DT_FLOAT8_E4M3FN: fprintf(o, "tilec_ld_e4m3(tilec_e4m3_from_float(%s, TILEC_RN, 1))", p->name); break;
    case DT_FLOAT8_E5M2: fprintf(o, "tilec_ld_e5m2(tilec_e5m2_from_float(%s, TILEC_RN, 1))", p->name); break;
    default: fprintf(o, "%s", p->name); break;
    }
}

void emit_launcher_name(FILE *o, const CodegenOptions *co, const Func *f)
{
    for (int i = co->nrename - 1; i >= 0; i--)
        if (!strcmp(co->rename_old[i], f->name)) {
            fputs(co->rename_new[i], o);
            return;
        }
    fprintf(o, "%s%s", co->symbol_prefix ? co->symbol_prefix : "", f->name);
}

void emit_launch_prototype(FILE *o, const CodegenOptions *co, const Func *f)
{
    /* a graph's part: only the graph's launcher in the same file calls it */
    fputs(f->internal ? "static tilec_status " : "tilec_status ", o);
    emit_launcher_name(o, co, f);
    fputs(emit_has_tunable(f) ? "(tilec_stream stream" : "(tilec_stream stream, tilec_grid grid", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->tunable && !co->tune_explicit) continue;
        if (p->kind == PARAM_ARRAY) fprintf(o, ", const tilec_array *%s", p->name);
        else fprintf(o, ", %s %s", emit_scalar_api_type(p->type.dtype), p->name);
    }
    fputc(')', o);
}

/* The TILE_CONST parameters joined by sep: "BM == 64 && BN == 128" (named,
 * with values), "BM = %lld, BN = %lld" (named, vals NULL: a format for the
 * values requested) or "64,128" (values only). */
static void const_values(FILE *o, const Func *f, const int64_t *vals, const char *sep, bool named)
{
    int c = 0;
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i].kind != PARAM_CONST) continue;
        if (c) fputs(sep, o);
        if (named) fprintf(o, "%s %s ", f->params[i].name, vals ? "==" : "=");
        if (vals) fprintf(o, "%" PRId64, vals[c]);
        else fputs("%lld", o);
        c++;
    }
}

/* Every argument is checked before anything else happens, an empty grid
 * included (as BLAS libraries check arguments before returning early on a
 * zero size): a wrong dtype or an unlisted constant is reported whatever the
 * problem's size, so it cannot hide until the data grows.  With TILE_CONST
 * parameters, the check also picks the specialization: spec_ is the index
 * (in f->specs) of the one the launch runs. */
bool emit_has_tunable(const Func *f)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].tunable) return true;
    return false;
}

void emit_tune_helpers(FILE *o, const CodegenOptions *co, const Program *p, bool cuda)
{
    /* only where a launcher has a table to search (unused static functions
     * are warnings) */
    bool any = false;
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->is_kernel && emit_has_tunable(p->funcs[i]))
            for (int e = 0; e < co->ntuning; e++)
                if (!co->tuning[e].is_default && !strcmp(co->tuning[e].kernel, p->funcs[i]->name)) any = true;
    if (!any) return;
    fputs("/* Tuned dispatch: the bucket of an extent (ceil(log2), 0 for 0 and 1) and the\n"
          " * compute capability of the current device (cached per device; 0 on the host). */\n"
          "static long long tilec_bucket_(int64_t n)\n{\n    long long b = 0;\n"
          "    while (b < 62 && ((int64_t)1 << b) < n) b++;\n    return b;\n}\n\n", o);
    if (cuda)
        fputs("static int tilec_cc_(void)\n{\n    static int cache_[64]; /* a race stores the same value */\n"
              "    int d = 0, ma = 0, mi = 0;\n    if (cudaGetDevice(&d) != cudaSuccess || d < 0) return 0;\n"
              "    if (d < 64 && cache_[d]) return cache_[d];\n"
              "    if (cudaDeviceGetAttribute(&ma, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||\n"
              "        cudaDeviceGetAttribute(&mi, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess) return 0;\n"
              "    if (d < 64) cache_[d] = ma * 10 + mi;\n    return ma * 10 + mi;\n}\n\n", o);
    else
        fputs("static int tilec_cc_(void)\n{\n    return 0;\n}\n\n", o);
}

/* The tuned values of f's TILE_TUNABLE parameters, as locals named like
 * them: the entry of co->tuning for this device (same cc) nearest to the
 * problem (smallest sum of bucket differences; the first of the sorted table
 * on ties, so an exact match wins), else the default (a `default` line, else
 * each tunable's first listed value). */
static int cmp_entry(const void *a, const void *b)
{
    const TuneEntry *x = *(const TuneEntry *const *)a, *y = *(const TuneEntry *const *)b;
    if (x->cc != y->cc) return x->cc < y->cc ? -1 : 1;
    for (int k = 0; k < x->nkey && k < y->nkey; k++)
        if (x->key[k] != y->key[k]) return x->key[k] < y->key[k] ? -1 : 1;
    for (int k = 0; k < x->nval && k < y->nval; k++)
        if (x->val[k] != y->val[k]) return x->val[k] < y->val[k] ? -1 : 1;
    return 0;
}

static void emit_dispatch(FILE *o, const CodegenOptions *co, const Func *f)
{
    int nkey = 0, nt = 0;
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i].kind == PARAM_ARRAY) nkey += f->params[i].rank;
        if (f->params[i].tunable) nt++;
    }
    const TuneEntry *dflt = NULL;
    int n = 0;
    const TuneEntry **tab = calloc((size_t)co->ntuning + 1, sizeof *tab);
    for (int i = 0; i < co->ntuning; i++) {
        const TuneEntry *e = &co->tuning[i];
        if (strcmp(e->kernel, f->name) || e->nval != nt) continue;
        if (e->is_default) dflt = e; /* the last default given wins */
        else if (e->nkey == nkey) tab[n++] = e;
    }
    qsort(tab, (size_t)n, sizeof *tab, cmp_entry);
    /* equal keys: the first (smallest values) of the sorted order */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && tab[m - 1]->cc == tab[i]->cc && !memcmp(tab[m - 1]->key, tab[i]->key, sizeof(int) * (size_t)nkey)) continue;
        tab[m++] = tab[i];
    }
    n = m;
    fputs("    /* tuned constants: the tuning table's entry for this device nearest to the\n"
          "     * problem's extents (bucketed by ceil(log2)), else the default */\n", o);
    for (int i = 0, t = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (!p->tunable) continue;
        fprintf(o, "    long long %s = %" PRId64 ";\n", p->name, dflt ? dflt->val[t] : p->specs[0]);
        t++;
        if (!dflt && f->is_array_kernel && p->ak_ref >= 0) {
            /* an array kernel's tile extent along an axis: the smallest
             * listed value that covers the axis's (broadcast) extent, else
             * the largest (a tuning table entry overrides it) */
            int64_t sorted[64];
            int ns = p->nspecs < 64 ? p->nspecs : 64;
            memcpy(sorted, p->specs, sizeof *sorted * (size_t)ns);
            for (int a = 1; a < ns; a++)
                for (int b = a; b > 0 && sorted[b - 1] < sorted[b]; b--) {
                    int64_t x = sorted[b];
                    sorted[b] = sorted[b - 1];
                    sorted[b - 1] = x;
                }
            /* a listed 0 (a row reduction's several chunks) is the value beyond the largest */
            if (ns && sorted[ns - 1] == 0) {
                fprintf(o, "    %s = 0;\n", p->name);
                ns--;
                fprintf(o, "    if (%s->shape[%d] <= %" PRId64 ") %s = %" PRId64 ";\n", f->params[p->ak_ref].name, p->ak_dim,
                        sorted[0], p->name, sorted[0]);
            } else {
                fprintf(o, "    %s = %" PRId64 ";\n", p->name, sorted[0]);
            }
            for (int k = 1; k < ns; k++)
                fprintf(o, "    if (%s->shape[%d] <= %" PRId64 ") %s = %" PRId64 ";\n", f->params[p->ak_ref].name,
                        p->ak_dim, sorted[k], p->name, sorted[k]);
        }
    }
    if (n) {
        fprintf(o, "    static const long long tab_[%d][%d] = {\n", n, 1 + nkey + nt);
        for (int e = 0; e < n; e++) {
            fprintf(o, "        {%d", tab[e]->cc);
            for (int k = 0; k < nkey; k++) fprintf(o, ", %d", tab[e]->key[k]);
            for (int k = 0; k < nt; k++) fprintf(o, ", %" PRId64, tab[e]->val[k]);
            fputs(e + 1 < n ? "},\n" : "}\n", o);
        }
        fputs("    };\n    {\n        const long long cc_ = tilec_cc_();\n", o);
        fprintf(o, "        const long long key_[%d] = {", nkey);
        int k = 0;
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (p->kind != PARAM_ARRAY) continue;
            for (int d = 0; d < p->rank; d++) fprintf(o, "%stilec_bucket_(%s->shape[%d])", k++ ? ", " : "", p->name, d);
        }
        fputs("};\n        int best_ = -1;\n        long long bestd_ = 0;\n", o);
        fprintf(o, "        for (int e_ = 0; e_ < %d; e_++) {\n            if (tab_[e_][0] != cc_) continue;\n"
                   "            long long d_ = 0;\n            for (int k_ = 0; k_ < %d; k_++) {\n"
                   "                const long long x_ = tab_[e_][1 + k_] - key_[k_];\n"
                   "                d_ += x_ < 0 ? -x_ : x_;\n            }\n"
                   "            if (best_ < 0 || d_ < bestd_) {\n                best_ = e_;\n                bestd_ = d_;\n"
                   "            }\n        }\n        if (best_ >= 0) {\n",
                n, nkey);
        for (int i = 0, t = 0; i < f->nparams; i++)
            if (f->params[i].tunable) fprintf(o, "            %s = tab_[best_][%d];\n", f->params[i].name, 1 + nkey + t++);
        fputs("        }\n    }\n", o);
    }
    /* whatever the table says, one chunk per row only where the row fits */
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].ak_whole)
            fprintf(o, "    if (%s->shape[%d] > %s) %s = 0;\n", f->params[f->params[i].ak_ref].name,
                    f->params[i].ak_dim, f->params[i].name, f->params[i].name);
    free(tab);
}

/* A matrix product's spaces: aspace_ (M, K) and bspace_ (K, N), the
 * broadcasts of its operands' arrays, and ospace_ (M, N), which the
 * outputs must have. */
static void product_spaces(FILE *o, const Func *f)
{
    for (int pass = 0; pass < 2; pass++) {
        AkRole role = pass ? AK_IN_B : AK_IN_A;
        const char *nm = pass ? "b" : "a";
        int n = 0;
        for (int i = 0; i < f->nparams; i++) n += f->params[i].ak_role == role;
        fprintf(o, "    const tilec_array *op%s_[%d] = {", nm, n);
        for (int i = 0, k = 0; i < f->nparams; i++)
            if (f->params[i].ak_role == role) fprintf(o, "%s%s", k++ ? ", " : "", f->params[i].name);
        fprintf(o, "};\n    static const char *const op%sn_[%d] = {", nm, n);
        for (int i = 0, k = 0; i < f->nparams; i++)
            if (f->params[i].ak_role == role) fprintf(o, "%s\"%s\"", k++ ? ", " : "", f->params[i].name);
        fprintf(o, "};\n    int64_t %sspace_[2];\n", nm);
        fprintf(o, "    if ((st_ = tilec_broadcast_shape(%d, op%s_, op%sn_, 2, %sspace_)) != TILEC_OK) return st_;\n", n, nm,
                nm, nm);
    }
    fputs("    int64_t ospace_[2];\n    if ((st_ = tilec_product_shape(aspace_, bspace_, ospace_)) != TILEC_OK) return st_;\n",
          o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->ak_role == AK_OUT_REF || p->ak_role == AK_OUT)
            fprintf(o, "    if ((st_ = tilec_check_product(%s, \"%s\", ospace_)) != TILEC_OK) return st_;\n", p->name, p->name);
    }
}

/* An array kernel's NumPy broadcasting (docs/language.md, "Array
 * kernels"): the outputs must have the iteration space's shape, and every
 * input is replaced by a descriptor of it broadcast to its space (an axis of
 * extent 1 repeated with stride 0), so the kernel reads all of them at the
 * same coordinates.  A reduction's operand space is the broadcast of its
 * inputs; the outputs are it without the reduced axis. */
static void emit_array_broadcast(FILE *o, const Func *f)
{
    int ref = -1, nop = 0;
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i].ak_role == AK_OUT_REF) ref = i;
        if (f->params[i].ak_role == AK_IN_OPERAND) nop++;
    }
    if (ref < 0) return;
    const Param *out = &f->params[ref];
    fputs("    /* NumPy broadcasting */\n", o);
    if (f->ak_matmul) {
        product_spaces(o, f);
    } else if (f->ak_axis >= 0) {
        fprintf(o, "    const tilec_array *ops_[%d] = {", nop);
        for (int i = 0, k = 0; i < f->nparams; i++)
            if (f->params[i].ak_role == AK_IN_OPERAND) fprintf(o, "%s%s", k++ ? ", " : "", f->params[i].name);
        fprintf(o, "};\n    static const char *const opn_[%d] = {", nop);
        for (int i = 0, k = 0; i < f->nparams; i++)
            if (f->params[i].ak_role == AK_IN_OPERAND) fprintf(o, "%s\"%s\"", k++ ? ", " : "", f->params[i].name);
        fprintf(o, "};\n    int64_t space_[%d];\n", f->ak_space_rank);
        fprintf(o, "    if ((st_ = tilec_broadcast_shape(%d, ops_, opn_, %d, space_)) != TILEC_OK) return st_;\n", nop,
                f->ak_space_rank);
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (p->ak_role == AK_OUT_REF || p->ak_role == AK_OUT)
                fprintf(o, "    if ((st_ = tilec_check_reduced(%s, \"%s\", space_, %d, %d, %d)) != TILEC_OK) return st_;\n",
                        p->name, p->name, f->ak_space_rank, f->ak_axis, (int)p->ak_keep);
        }
        /* the reduced space, for the arrays read there */
        bool reduced_in = false;
        for (int i = 0; i < f->nparams; i++) reduced_in |= f->params[i].ak_role == AK_IN;
        if (reduced_in) {
            fprintf(o, "    int64_t ospace_[%d];\n", f->ak_space_rank - 1);
            for (int d = 0, k = 0; d < f->ak_space_rank; d++)
                if (d != f->ak_axis) fprintf(o, "    ospace_[%d] = space_[%d];\n", k++, d);
        }
    } else {
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (p->ak_role == AK_OUT)
                fprintf(o, "    if ((st_ = tilec_check_same_shape(%s, \"%s\", %s, \"%s\")) != TILEC_OK) return st_;\n",
                        p->name, p->name, out->name, out->name);
        }
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->ak_role != AK_IN && p->ak_role != AK_IN_OPERAND && p->ak_role != AK_IN_A && p->ak_role != AK_IN_B)
            continue;
        if (f->ak_matmul) {
            const char *sp = p->ak_role == AK_IN_A ? "aspace_" : p->ak_role == AK_IN_B ? "bspace_" : "ospace_";
            const char *what = p->ak_role == AK_IN_A   ? "the product's first operand"
                               : p->ak_role == AK_IN_B ? "the product's second operand"
                                                       : "the product";
            fprintf(o, "    tilec_array bc_%s_;\n", p->name);
            fprintf(o, "    if ((st_ = tilec_broadcast_to(%s, \"%s\", %s, 2, \"%s\", &bc_%s_)) != TILEC_OK) return st_;\n",
                    p->name, p->name, sp, what, p->name);
            fprintf(o, "    %s = &bc_%s_;\n", p->name, p->name);
            continue;
        }
        bool operand = p->ak_role == AK_IN_OPERAND;
        char space[160], sname[160];
        snprintf(space, sizeof space, "%s->shape", out->name);
        snprintf(sname, sizeof sname, "'%s'", out->name);
        bool rows = f->ak_axis >= 0;
        fprintf(o, "    tilec_array bc_%s_;\n", p->name);
        fprintf(o, "    if ((st_ = tilec_broadcast_to(%s, \"%s\", %s, %d, \"%s\", &bc_%s_)) != TILEC_OK) return st_;\n",
                p->name, p->name, operand ? "space_" : rows ? "ospace_" : space,
                operand ? f->ak_space_rank : rows ? f->ak_space_rank - 1 : out->rank,
                operand ? "the operands' broadcast" : rows ? "the reduced operands" : sname, p->name);
        fprintf(o, "    %s = &bc_%s_;\n", p->name, p->name);
    }
}

void emit_launch_checks(FILE *o, const CodegenOptions *co, const Func *f, char **grids)
{
    const int nspec = f->nspecs;
    fputs("    tilec_status st_;\n    tilec_clear_error();\n", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        fprintf(o, "    if ((st_ = tilec_check_array(%s, \"%s\", %d, %s)) != TILEC_OK) return st_;\n", p->name, p->name,
                p->rank, emit_dtype_enum(p->type.dtype));
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY || p->readonly) continue;
        fprintf(o, "    if ((st_ = tilec_check_output(%s, \"%s\")) != TILEC_OK) return st_;\n", p->name, p->name);
        for (int j = 0; j < f->nparams; j++) {
            const Param *q = &f->params[j];
            if (j == i || q->kind != PARAM_ARRAY) continue;
            if (!q->readonly && j < i) continue; /* each writable pair once */
            /* An output may be the very view of an input (in place) when
             * no block reads what another block writes (inplace.c); two
             * outputs, or an input that other blocks read, may not share
             * memory with it at all. */
            fprintf(o, "    if ((st_ = tilec_check_%s(%s, \"%s\", %s, \"%s\")) != TILEC_OK) return st_;\n",
                    q->readonly && inplace_same_view_ok(f, p, q) ? "alias" : "disjoint", p->name, p->name, q->name, q->name);
        }
    }
    if (f->is_array_kernel) emit_array_broadcast(o, f);
    bool tuned = emit_has_tunable(f);
    if (tuned && !co->tune_explicit) emit_dispatch(o, co, f);
    for (int i = 0; co->tune_explicit && i < f->nparams; i++)
        if (f->params[i].ak_whole) /* the tuning program's choice: refused where the row does not fit */
            fprintf(o, "    if (%s && %s->shape[%d] > %s)\n        return tilec_fail(TILEC_ERR_CONSTANT, "
                       "\"%s = %%lld needs rows of at most that many elements (0: rows of any length)\", (long long)%s);\n",
                    f->params[i].name, f->params[f->params[i].ak_ref].name, f->params[i].ak_dim, f->params[i].name,
                    f->params[i].name, f->params[i].name);
    if (ast_nconst(f)) {
        /* "    if (BM == 64 && BN == 128) spec_ = 0;", ... and the error
         * listing the requested and the compiled values */
        fputs("    int spec_ = -1;\n", o);
        for (int s = 0; s < nspec; s++) {
            fputs(s ? "    else if (" : "    if (", o);
            const_values(o, f, f->specs[s].vals, " && ", true);
            fprintf(o, ") spec_ = %d;\n", s);
        }
        fputs("    if (spec_ < 0)\n        return tilec_fail(TILEC_ERR_CONSTANT, \"", o);
        const_values(o, f, NULL, ", ", true);
        fprintf(o, ": no compiled specialization of %s (compiled: ", f->name);
        for (int s = 0; s < nspec; s++) {
            fputs(s ? "; " : "", o);
            const_values(o, f, f->specs[s].vals, ",", false);
        }
        fputs(")\"", o);
        for (int i = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_CONST) fprintf(o, ", (long long)%s", f->params[i].name);
        fputs(");\n", o);
    }
    if (tuned) {
        /* the grid the specialization implies (grid.c) */
        fputs("    int64_t g3_[3] = {1, 1, 1};\n", o);
        for (int s = 0; s < nspec; s++) {
            fprintf(o, "    %sif (spec_ == %d) {\n        const int64_t t_[3] = %s;\n", s ? "else " : "", s, grids[s]);
            fputs("        g3_[0] = t_[0];\n        g3_[1] = t_[1];\n        g3_[2] = t_[2];\n    }\n", o);
        }
        fputs("    if (g3_[0] > 0x7fffffff || g3_[1] > 0xffff || g3_[2] > 0xffff)\n"
              "        return tilec_fail(TILEC_ERR_GRID, \"grid (%lld, %lld, %lld) is over the limits\", (long long)g3_[0],\n"
              "                          (long long)g3_[1], (long long)g3_[2]);\n"
              "    const tilec_grid grid = {(uint32_t)g3_[0], (uint32_t)g3_[1], (uint32_t)g3_[2]};\n", o);
    }
    fputs("    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return TILEC_OK; /* an empty problem */\n", o);
    fputs("    if ((st_ = tilec_check_grid(grid)) != TILEC_OK) return st_;\n", o);
}

/* ---- shared pieces of the launchers ------------------------------------ */

void emit_line(FILE *o, const CodegenOptions *co, SrcLoc loc)
{
    if (!co->line_directives || loc.line <= 0 || !co->source_name) return;
    fprintf(o, "#line %d \"", loc.line);
    for (const char *c = co->source_name; *c; c++) {
        if (*c == '"' || *c == '\\') fputc('\\', o);
        fputc(*c, o);
    }
    fputs("\"\n", o);
}

/* The file name without directories: generated text must not depend on
 * where the source was (reproducible builds); only #line keeps the path. */
const char *emit_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The declarations of the TILE_EXTERN functions p calls: extern "C"
 * __device__ for CUDA C++ (defined in the user's .cu, linked with -rdc),
 * plain C prototypes for the host target. */
void emit_extern_decls(FILE *o, const Program *p, bool cuda)
{
    int n = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *f = p->funcs[i];
        if (!f->is_extern) continue;
        if (!n++) fputs(cuda ? "/* TILE_EXTERN: defined in CUDA C++ (build with -rdc=true) */\n" : "/* TILE_EXTERN: defined in C */\n", o);
        fprintf(o, "%s%s %s(", cuda ? "extern \"C\" __device__ " : "extern ", dtype_source_type(f->ret.dtype), f->name);
        for (int j = 0; j < f->nparams; j++)
            fprintf(o, "%s%s %s", j ? ", " : "", dtype_source_type(f->params[j].type.dtype), f->params[j].name);
        fputs(f->nparams ? ");\n" : "void);\n", o);
    }
    if (n) fputc('\n', o);
}

/* A kernel's own comment, inside a generated comment: line by line, with
 * any comment terminator in it defused. */
void emit_doc_lines(FILE *o, const char *doc)
{
    for (const char *c = doc; *c;) {
        fputs(" *", o);
        if (*c != '\n') fputc(' ', o);
        for (; *c && *c != '\n'; c++) {
            fputc(*c, o);
            if (*c == '*' && c[1] == '/') fputc(' ', o);
        }
        fputc('\n', o);
        if (*c) c++;
    }
}

void emit_banner(FILE *o, const CodegenOptions *co, const char *what)
{
    fprintf(o, "/* %s generated by tilec " TILEC_VERSION " from %s.  Do not edit: edit the source and\n"
               " * run tilec again. */\n",
            what, co->source_name ? emit_base_name(co->source_name) : "(stdin)");
}
