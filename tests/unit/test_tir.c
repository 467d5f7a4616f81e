/* test_tir.c: the tile IR (codegen/tir.h) of small kernels: the homes the
 * placement gives values, the operations lowering produces and their order
 * (materialisations before their readers, explicit fragment conversions,
 * pipelined K loops at -O2 only), and that a register tile's thread-value
 * layout is the mapping the emitters index registers by. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "codegen/lower.h"
#include "frontend/diag.h"
#include "frontend/frontend.h"
#include "sema/sema.h"

static Program *parse(const char *src)
{
    char dir[] = "/tmp/tilec-test-tir-XXXXXX";
    if (!mkdtemp(dir)) return NULL;
    char path[64];
    snprintf(path, sizeof path, "%s/k.tile.c", dir);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs(src, f);
    fclose(f);
    FrontendOptions fo = {.tilec_include_dir = "runtime"};
    Program *p = frontend_parse(path, &fo);
    remove(path);
    remove(dir);
    if (p && !sema_program(p)) {
        program_free(p);
        return NULL;
    }
    return p;
}

static TirKernel *lower(Program *p, const char *kernel, bool cuda, int opt)
{
    Func *f = ast_find_func(p, kernel);
    if (!f || f->nspecs < 1) return NULL;
    CodegenOptions co = {.source_name = "k.tile.c", .header_name = "k.h", .arch = 80, .opt_level = opt, .max_threads = 256};
    char *code = NULL;
    size_t len = 0;
    FILE *sink = open_memstream(&code, &len);
    KernelPlan plan;
    TirKernel *k = NULL;
    bool ok = body_lower(sink, p, f->specs[0].typed, cuda, &co, &plan, &k);
    fclose(sink);
    free(code);
    return ok ? k : NULL;
}

static const TirValue *var(const TirKernel *k, const char *name)
{
    for (int i = 0; i < k->nvalues; i++)
        if (k->values[i].sym && !strcmp(k->values[i].sym->name, name)) return &k->values[i];
    return NULL;
}

/* The operations of a list, flattened in execution order (kids, init and
 * step included), as kinds. */
static int flatten(const TirOp *op, const TirOp **out, int n, int cap)
{
    for (; op && n < cap; op = op->next) {
        n = flatten(op->pre, out, n, cap);
        n = flatten(op->init, out, n, cap);
        if (n < cap) out[n++] = op;
        n = flatten(op->kids, out, n, cap);
        n = flatten(op->else_kids, out, n, cap);
        n = flatten(op->step, out, n, cap);
    }
    return n;
}

static int find_op(const TirOp **ops, int n, TirOpKind kind, const TirValue *dst, int from)
{
    for (int i = from; i < n; i++)
        if (ops[i]->kind == kind && (!dst || ops[i]->dst == dst)) return i;
    return -1;
}

static const char *rows_src =
    "#include <tilec.h>\n"
    "TILE_FUNC float scale(float v, float s) { return v * s; }\n"
    "TILE_KERNEL void rows(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const float, 1) w, TILE_ARRAY(float, 2) y)\n"
    "{\n"
    "    int i = tile_bid(0);\n"
    "    float t = tile_load(x, .index = {i, 0}, .shape = {4, 256});\n"
    "    float m = tile_sum(t, .axis = 1, .keepdims = true);\n"
    "    float b = tile_load(w, .index = {0}, .shape = {256});\n"
    "    float u = scale(t - m, 2.0f) + b;\n"
    "    tile_store(y, u, .index = {i, 0});\n"
    "}\n";

static void test_rows(void)
{
    Program *p = parse(rows_src);
    CHECK(p != NULL, "rows: parse or sema failed");
    if (!p) return;
    TirKernel *k = lower(p, "rows", true, 2);
    CHECK(k != NULL, "rows: lowering failed");
    if (!k) {
        program_free(p);
        return;
    }
    CHECK_INT(k->threads, 256);
    const TirValue *i = var(k, "i"), *t = var(k, "t"), *m = var(k, "m"), *b = var(k, "b"), *u = var(k, "u");
    CHECK(i && t && m && b && u, "rows: a variable has no value");
    if (!(i && t && m && b && u)) {
        program_free(p);
        return;
    }
    CHECK_INT(i->home, TIR_SCALAR);
    CHECK_INT(t->home, TIR_REGS);
    CHECK_INT(t->per_thread, 4);
    CHECK_INT(m->home, TIR_REPL); /* 4 row sums over 256 threads */
    CHECK(!t->mirror, "t needs no mirror");
    /* b (256,) is read broadcast into (4,256), out of its threads' order */
    CHECK(b->mirror, "b has no mirror");
    const TirOp *ops[128];
    int n = flatten(k->body, ops, 0, 128);
    int load_t = find_op(ops, n, TIR_MATERIALIZE, NULL, 0);
    int def_t = find_op(ops, n, TIR_DEF, t, 0);
    int def_m = find_op(ops, n, TIR_DEF, m, 0);
    int call = find_op(ops, n, TIR_CALL, NULL, 0);
    int def_u = find_op(ops, n, TIR_DEF, u, 0);
    int store = find_op(ops, n, TIR_STORE, NULL, 0);
    CHECK(load_t >= 0 && load_t < def_t, "the load (%d) precedes t's definition (%d)", load_t, def_t);
    CHECK(def_t < def_m && find_op(ops, n, TIR_MATERIALIZE, NULL, def_t) < def_m, "the sum materialises before m");
    CHECK(call > def_m && call < def_u, "the inlined call (%d) sits between m (%d) and u (%d)", call, def_m, def_u);
    CHECK(def_u < store && store == n - 1, "the store is last (%d of %d)", store, n);
    /* a mirror is written right after each definition of its value: b's,
     * and m's (the row sums, read broadcast over the rows) */
    int def_b = find_op(ops, n, TIR_DEF, b, 0);
    CHECK(def_b >= 0 && find_op(ops, n, TIR_TO_SMEM, b, 0) == def_b + 1, "b's mirror after its definition (%d)", def_b);
    int mirrors = 0;
    for (int q = 0; q < n; q++) {
        if (ops[q]->kind != TIR_TO_SMEM) continue;
        mirrors++;
        CHECK(q > 0 && ops[q - 1]->dst == ops[q]->dst && ops[q]->dst->mirror, "conversion %d follows no definition", q);
    }
    CHECK(m->mirror && mirrors == 2, "%d mirror writes", mirrors);
    /* the call's own operations: two parameters, then its result */
    int kids = 0;
    for (const TirOp *c = ops[call]->kids; c; c = c->next) kids++;
    CHECK_INT(kids, 3);
    CHECK(ops[call]->dst != NULL && ops[call]->dst->home == TIR_REGS, "the call's result lives in registers");
    CHECK(ops[0]->stmt_start, "the first operation starts a statement");

    /* t's layout is the mapping the emitters index registers by:
     * thread tt's value e is element (e / V) * T * V + tt * V + e % V */
    Layout tv;
    int64_t nel = t->n;
    CHECK(layout_tv_row_major(1, &nel, k->threads, t->vec, &tv, NULL, 0), "layout_tv_row_major");
    int T = k->threads, V = t->vec, bad = 0;
    for (int tt = 0; tt < T; tt++)
        for (int e = 0; e < t->per_thread; e++) {
            int64_t want = (int64_t)(e / V) * T * V + (int64_t)tt * V + e % V;
            int64_t got = layout_eval(&tv, tt + (int64_t)T * e);
            if (got != want) bad++;
        }
    CHECK(bad == 0, "%d (thread, value) pairs map elsewhere than the emitters' formula", bad);

    /* the host target: one thread holds every tile */
    TirKernel *h = lower(p, "rows", false, 2);
    CHECK(h && var(h, "t")->home == TIR_WHOLE && var(h, "t")->per_thread == 1024 && !var(h, "b")->mirror,
          "host placement");
    program_free(p);
}

/* tilec_swz<C>(r, c) of tilec_ops.h, written again from its comment: run
 * q = c / 8 of row r at run q ^ s(r), s(r) = r % 8 with P = C / 8 >= 8
 * runs a row, (r / (8 / P)) % P with fewer. */
static int64_t swz_ref(int64_t C, int64_t r, int64_t c)
{
    int64_t P = C / 8;
    int64_t s = P >= 8 ? r % 8 : (r / (8 / P)) % P;
    return r * C + ((c / 8) ^ s) * 8 + c % 8;
}

static const char *mm_src =
    "#include <tilec.h>\n"
    "TILE_KERNEL void mm(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)\n"
    "{\n"
    "    float acc = tile_zeros(float, .shape = {64, 64});\n"
    "    for (int64_t k = 0; k < 8; k++) {\n"
    "        _Float16 x = tile_load(a, .index = {tile_bid(0), k}, .shape = {64, 32});\n"
    "        _Float16 y = tile_load(b, .index = {k, tile_bid(1)}, .shape = {32, 64});\n"
    "        acc = tile_mma(x, y, acc);\n"
    "    }\n"
    "    tile_store(c, acc, .index = {tile_bid(0), tile_bid(1)});\n"
    "}\n";

static void test_mma(void)
{
    Program *p = parse(mm_src);
    CHECK(p != NULL, "mm: parse or sema failed");
    if (!p) return;
    for (int opt = 0; opt <= 2; opt += 2) {
        TirKernel *k = lower(p, "mm", true, opt);
        CHECK(k != NULL, "mm -O%d: lowering failed", opt);
        if (!k) continue;
        const TirValue *acc = var(k, "acc");
        CHECK(acc && acc->home == TIR_FRAGMENT && acc->frag_k == 16, "-O%d: acc lives in fragments", opt);
        const TirOp *ops[128];
        int n = flatten(k->body, ops, 0, 128);
        int to_frag = find_op(ops, n, TIR_TO_FRAG, acc, 0);
        int to_regs = find_op(ops, n, TIR_TO_REGS, acc, 0);
        int store = find_op(ops, n, TIR_STORE, NULL, 0);
        int pipe = find_op(ops, n, TIR_PIPELINED_FOR, NULL, 0);
        int update = find_op(ops, n, TIR_MMA_UPDATE, acc, 0);
        CHECK(to_frag > find_op(ops, n, TIR_DEF, acc, 0), "-O%d: acc becomes fragments after its definition", opt);
        CHECK(to_regs > to_frag && to_regs < store, "-O%d: acc returns to registers before the store", opt);
        if (opt) CHECK(pipe > to_frag && pipe < to_regs && update < 0, "-O2: the K loop is a pipeline (%d)", pipe);
        else CHECK(pipe < 0 && update > to_frag && update < to_regs, "-O0: an update on fragments in a loop (%d)", update);
        if (pipe < 0) continue;
        /* the operand buffers' swizzles are tilec_swz's layout (tilec_ops.h) */
        for (int b = 0; b < 2; b++) {
            const TirValue *buf = ops[pipe]->bufs[b];
            CHECK(buf && buf->home == TIR_SMEM && buf->nswz == 1 && buf->stages >= 2, "-O2: operand buffer %d", b);
            if (!buf || buf->nswz != 1) continue;
            int64_t C = buf->shape.dim[1], bad = 0;
            for (int64_t r = 0; r < buf->shape.dim[0]; r++)
                for (int64_t c = 0; c < C; c++)
                    bad += layout_swizzle_apply(&buf->swz[0], r * C + c) != swz_ref(C, r, c);
            CHECK(bad == 0, "buffer %d (%lld columns): %lld elements placed elsewhere than tilec_swz", b, (long long)C,
                  (long long)bad);
        }
    }
    program_free(p);
}

/* Conversion elimination: the accumulator read by two statements after
 * the loop is refreshed once; read inside the loop after each update and
 * again after the loop, it is refreshed in the loop and after it. */
static const char *reads_src =
    "#include <tilec.h>\n"
    "TILE_KERNEL void twice(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)\n"
    "{\n"
    "    float acc = tile_zeros(float, .shape = {64, 64});\n"
    "    for (int64_t k = 0; k < 8; k++)\n"
    "        acc = tile_mma(tile_load(a, .index = {0, k}, .shape = {64, 32}), tile_load(b, .index = {k, 0}, .shape = {32, 64}), acc);\n"
    "    float h = acc * 0.5f;\n"
    "    tile_store(c, h + acc * 0.5f, .index = {0, 0});\n"
    "}\n"
    "TILE_KERNEL void inside(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)\n"
    "{\n"
    "    float acc = tile_zeros(float, .shape = {64, 64});\n"
    "    float m = tile_zeros(float, .shape = {64, 64});\n"
    "    for (int64_t k = 0; k < 8; k++) {\n"
    "        acc = tile_mma(tile_load(a, .index = {0, k}, .shape = {64, 32}), tile_load(b, .index = {k, 0}, .shape = {32, 64}), acc);\n"
    "        m = tile_maximum(m, acc);\n"
    "    }\n"
    "    tile_store(c, m + acc, .index = {0, 0});\n"
    "}\n";

static void test_conversions(void)
{
    Program *p = parse(reads_src);
    CHECK(p != NULL, "reads: parse or sema failed");
    if (!p) return;
    for (int opt = 0; opt <= 2; opt += 2) {
        static const char *const names[2] = {"twice", "inside"};
        for (int kk = 0; kk < 2; kk++) {
            TirKernel *k = lower(p, names[kk], true, opt);
            CHECK(k != NULL, "%s -O%d: lowering failed", names[kk], opt);
            if (!k) continue;
            const TirValue *acc = var(k, "acc");
            CHECK(acc && acc->home == TIR_FRAGMENT, "%s -O%d: acc in fragments", names[kk], opt);
            const TirOp *ops[256];
            int n = flatten(k->body, ops, 0, 256), conv = 0, nops = 0;
            for (int q = 0; q < n; q++) {
                conv += ops[q]->kind == TIR_TO_REGS && ops[q]->dst == acc;
                nops += ops[q]->kind == TIR_NOP;
            }
            CHECK_INT(conv, kk == 0 ? 1 : 2);
            CHECK_INT(nops, 0);
        }
    }
    program_free(p);
}

int main(void)
{
    diag_init(&(DiagOptions){.out = stderr});
    test_rows();
    test_mma();
    test_conversions();
    return check_done("tir");
}
