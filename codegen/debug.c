/* debug.c: tile_printf and tile_assert in generated code.
 *
 * tile_printf: shapes are constants, so the format is expanded here into
 * one conversion per element (a tile prints as [[a, b], [c, d]]) and the
 * elements become printf's arguments, at most 32 a call (CUDA's device
 * printf limit; the host splits the same way, so both print the same
 * text).  On the GPU thread 0 prints, reading tile arguments out of their
 * threads' order through their shared-memory mirrors (scan.c asks for them
 * as for any out-of-order reader).
 *
 * tile_assert: the condition is a scalar (sema reduces a tile one with
 * tile_all), the same in every thread, so a failing block returns as a
 * whole after its thread 0 records the failure: the file's assertion record
 * (tilec_assert_record, tilec_ops.h) and its table of sites, which the
 * launchers of kernels with asserts read after the launch. */
#include "codegen/lower.h"
#include "sema/format.h"

/* ---- tile_printf ---------------------------------------------------------- */

typedef struct Printf {
    Emitter *em;
    char *fmt;        /* the current call's format, escaped */
    size_t nfmt, cap;
    const char *args[32];
    int nargs;
} Printf;

static void put(Printf *pf, const char *s, size_t n)
{
    if (pf->nfmt + n + 1 > pf->cap) {
        pf->cap = (pf->nfmt + n + 1) * 2;
        pf->fmt = realloc(pf->fmt, pf->cap);
        if (!pf->fmt) abort();
    }
    memcpy(pf->fmt + pf->nfmt, s, n);
    pf->nfmt += n;
    pf->fmt[pf->nfmt] = 0;
}

/* Literal text: escaped for C, '%' doubled for printf. */
static void put_text(Printf *pf, const char *s, int64_t n)
{
    Emitter *em = pf->em;
    for (int64_t i = 0; i < n; i++) {
        if (s[i] == '%') put(pf, "%%", 2);
        else {
            char *e = ast_escape(em->ar, s + i, 1);
            put(pf, e, strlen(e));
        }
    }
}

static void flush(Printf *pf)
{
    if (!pf->nfmt && !pf->nargs) return;
    Emitter *em = pf->em;
    char *call = S("printf(\"%s\"", pf->fmt ? pf->fmt : "");
    for (int i = 0; i < pf->nargs; i++) call = S("%s, %s", call, pf->args[i]);
    line(em, "%s);", call);
    pf->nfmt = 0;
    if (pf->fmt) pf->fmt[0] = 0;
    pf->nargs = 0;
}

/* One element of argument a (row-major index i), converted as printf
 * takes it, with its conversion. */
static void put_elem(Printf *pf, const FmtItem *it, Expr *a, int64_t i)
{
    Emitter *em = pf->em;
    if (pf->nargs == 32) flush(pf);
    Dtype t = ex_concrete(a->dtype, &a->cval);
    Ctx c = {.shape = &a->shape, .idx = a->shape.rank ? S("%" PRId64, i) : "0", .home = false};
    char *v = ex_evc(em, a, c, t);
    const char *len = "", *cast;
    if (dtype_is_float(t)) cast = "double";
    else if (dtype_bits(t) == 64) {
        len = "ll";
        cast = dtype_is_signed(t) ? "long long" : "unsigned long long";
    } else {
        cast = t == DT_BOOL || dtype_is_signed(t) ? "int" : "unsigned";
    }
    char *spec = S("%%%s%s%c", it->spec, len, it->c);
    put(pf, spec, strlen(spec));
    pf->args[pf->nargs++] = S("(%s)(%s)", cast, v);
}

/* A tile's elements from row-major index base along dimensions k.., in
 * brackets, separated by ", ". */
static void put_tile(Printf *pf, const FmtItem *it, Expr *a, int k, int64_t base)
{
    put(pf, "[", 1);
    for (int64_t i = 0; i < a->shape.dim[k]; i++) {
        if (i) put(pf, ", ", 2);
        int64_t at = base * a->shape.dim[k] + i;
        if (k == a->shape.rank - 1) put_elem(pf, it, a, at);
        else put_tile(pf, it, a, k + 1, at);
    }
    put(pf, "]", 1);
}

void dbg_emit_printf(Emitter *em, Expr *e)
{
    const Expr *f = e->args[0];
    int cap = (int)f->nstr + 1, n = 0;
    FmtItem *items = calloc((size_t)cap, sizeof *items);
    FmtError err;
    if (!items) abort();
    if (!fmt_parse(f->str, f->nstr, items, cap, &n, &err)) { /* sema checked it */
        free(items);
        em->ok = false;
        return;
    }
    Printf pf = {.em = em};
    bool threads = em->tg->threads;
    if (threads) {
        line(em, "if (t_ == 0) { /* tile_printf: the block prints once */");
        em->ind++;
    }
    for (int i = 0, arg = 1; i < n; i++) {
        const FmtItem *it = &items[i];
        if (!it->conv) {
            put_text(&pf, f->str + it->start, it->end - it->start);
            continue;
        }
        Expr *a = e->args[arg++];
        if (a->shape.rank == 0) put_elem(&pf, it, a, 0);
        else put_tile(&pf, it, a, 0, 0);
    }
    flush(&pf);
    free(pf.fmt);
    free(items);
    if (threads) {
        em->ind--;
        line(em, "}");
        /* the mirrors it read may be written again next */
        line(em, "%s", em->bar);
    }
}

/* ---- tile_assert ---------------------------------------------------------- */

typedef struct Sites {
    const Expr *e[256];
    int n;
    bool full;
} Sites;

static bool same_place(SrcLoc a, SrcLoc b)
{
    return a.line == b.line && a.col == b.col && (a.file == b.file || (a.file && b.file && !strcmp(a.file, b.file)));
}

static bool site_expr(AstVisitor *v, const Expr *e)
{
    Sites *s = v->ctx;
    if (e->kind != EX_BUILTIN || e->bi != BI_ASSERT) return true;
    for (int i = 0; i < s->n; i++)
        if (same_place(s->e[i]->loc, e->loc)) return true;
    if (s->n == 256) s->full = true;
    else s->e[s->n++] = e;
    return true;
}

/* The file's assertions, in the order of its kernels and their
 * specializations (inlined tile functions included), each place once. */
static void collect_sites(const Program *p, const Func *only, Sites *s)
{
    s->n = 0;
    s->full = false;
    AstVisitor v = {.expr = site_expr, .inlined = true, .ctx = s};
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *f = p->funcs[i];
        if (!f->is_kernel || (only && f != only)) continue;
        for (int sp = 0; sp < f->nspecs; sp++)
            if (f->specs[sp].typed) ast_walk_stmt(&v, f->specs[sp].typed->body);
    }
}

bool dbg_has_assert(const Program *p, const Func *f)
{
    Sites s;
    collect_sites(p, f, &s);
    return s.n > 0;
}

static int site_of(const Program *p, const Expr *e)
{
    Sites s;
    collect_sites(p, NULL, &s);
    for (int i = 0; i < s.n; i++)
        if (same_place(s.e[i]->loc, e->loc)) return i;
    return -1;
}

void dbg_emit_assert(Emitter *em, Expr *e)
{
    Expr *c = e->args[0];
    Ctx cc = {.shape = &c->shape, .idx = "0"};
    const char *b = em->tg->block_index;
    line(em, "if (!(%s)) { /* tile_assert failed: record it, and the block stops */", ex_evc(em, c, cc, DT_BOOL));
    em->ind++;
    line(em, "%stilec_assert_fail(&tilec_assert_rec_, %d, %s, %s, %s);", em->tg->threads ? "if (t_ == 0) " : "",
         site_of(em->p, e), S(b, 'x'), S(b, 'y'), S(b, 'z'));
    line(em, "return;");
    em->ind--;
    line(em, "}");
}

/* The file's record, table of sites and the check the launchers run. */
void dbg_emit_assert_support(FILE *o, const CodegenOptions *co, Program *p, bool cuda)
{
    Sites s;
    collect_sites(p, NULL, &s);
    if (!s.n) return;
    Arena *ar = p->arena;
    fprintf(o, "/* tile_assert: the first failure of this file's kernels (tilec_ops.h), and\n"
               " * each assertion's place, condition and message. */\n%stilec_assert_record tilec_assert_rec_;\n",
            cuda ? "static __device__ " : "static ");
    fprintf(o, "static const char *const tilec_assert_where_[%d] = {\n", s.n);
    for (int i = 0; i < s.n; i++) {
        const Expr *e = s.e[i];
        const char *file = e->loc.file && p->main_file && !strcmp(e->loc.file, p->main_file) && co->source_name
                               ? co->source_name : e->loc.file ? e->loc.file : "?";
        const char *text = e->text;
        char *w = text ? arena_printf(ar, "%s:%d:%d: assertion `%s` failed", file, e->loc.line, e->loc.col, text)
                       : arena_printf(ar, "%s:%d:%d: assertion failed", file, e->loc.line, e->loc.col);
        fprintf(o, "    \"%s\",\n", ast_escape(ar, w, (int64_t)strlen(w)));
    }
    fprintf(o, "};\nstatic const char *const tilec_assert_msg_[%d] = {\n", s.n);
    for (int i = 0; i < s.n; i++) {
        const Expr *e = s.e[i];
        if (e->nargs > 1) fprintf(o, "    \"%s\",\n", ast_escape(ar, e->args[1]->str, e->args[1]->nstr));
        else fputs("    0,\n", o);
    }
    fputs("};\n\n", o);
    if (cuda)
        fprintf(o, "/* After a launch of a kernel with asserts: waits for it (on its stream) and\n"
                   " * reports a failure, resetting the record for the next launch. */\n"
                   "static tilec_status tilec_assert_check_(cudaStream_t s_)\n{\n"
                   "    tilec_assert_record r_;\n"
                   "    cudaError_t e_ = cudaMemcpyFromSymbolAsync(&r_, tilec_assert_rec_, sizeof r_, 0, cudaMemcpyDeviceToHost, s_);\n"
                   "    if (e_ == cudaSuccess) e_ = cudaStreamSynchronize(s_);\n"
                   "    if (e_ == cudaSuccess && r_.failed) {\n"
                   "        const tilec_assert_record z_ = {0, 0, 0, 0, 0};\n"
                   "        e_ = cudaMemcpyToSymbolAsync(tilec_assert_rec_, &z_, sizeof z_, 0, cudaMemcpyHostToDevice, s_);\n"
                   "        if (e_ == cudaSuccess) e_ = cudaStreamSynchronize(s_);\n"
                   "    }\n"
                   "    if (e_ != cudaSuccess) return tilec_fail(TILEC_ERR_CUDA, \"%%s: %%s\", cudaGetErrorName(e_), cudaGetErrorString(e_));\n"
                   "    return r_.failed ? tilec_assert_report(&r_, tilec_assert_where_, tilec_assert_msg_, %d) : TILEC_OK;\n"
                   "}\n\n",
                s.n);
    else
        fprintf(o, "/* After a launch of a kernel with asserts: reports a failure, resetting the\n"
                   " * record for the next launch. */\n"
                   "static tilec_status tilec_assert_check_(void)\n{\n"
                   "    const tilec_assert_record r_ = tilec_assert_rec_;\n"
                   "    if (!r_.failed) return TILEC_OK;\n"
                   "    const tilec_assert_record z_ = {0, 0, 0, 0, 0};\n"
                   "    tilec_assert_rec_ = z_;\n"
                   "    return tilec_assert_report(&r_, tilec_assert_where_, tilec_assert_msg_, %d);\n"
                   "}\n\n",
                s.n);
}
