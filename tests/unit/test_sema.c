/* test_sema.c: the builtins table (frontend/builtins.def) against tilec.h's
 * macros, and sema's product: one typed copy per TILE_CONST specialization,
 * with every binary operation's operand type recorded and compound
 * assignments desugared, the parsed kernel left untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "frontend/builtins.h"
#include "frontend/diag.h"
#include "frontend/frontend.h"
#include "frontend/simt.h"
#include "sema/sema.h"

/* Every __tilec_NAME tilec.h calls has a row, and every row a macro (the
 * __tilec_simt_NAME ones in frontend/simt.h's table). */
static void test_table_matches_header(void)
{
    FILE *f = fopen("runtime/tilec.h", "rb");
    CHECK(f != NULL, "cannot open runtime/tilec.h (run from the repository root)");
    if (!f) return;
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    bool seen[BI_COUNT] = {false}, simt_seen[SB_COUNT] = {false};
    int calls = 0;
    for (const char *p = strstr(text, "__tilec_"); p; p = strstr(p + 1, "__tilec_")) {
        char name[64];
        size_t k = 0;
        const char *q = p + 8;
        while (k + 1 < sizeof name && ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_')) name[k++] = *q++;
        name[k] = 0;
        if (*q != '(' || k == 0) continue; /* __tilec_ alone, or not a call */
        if (!strncmp(name, "simt_", 5)) { /* SIMT builtins: their own table (frontend/simt.h) */
            SimtBuiltin sb = simt_builtin_lookup(name + 5);
            CHECK(sb != SB_NONE || !strcmp(name, "simt_offset"), "tilec.h calls __tilec_%s, which frontend/simt.h does not list", name);
            if (sb != SB_NONE) simt_seen[sb] = true;
            continue;
        }
        Builtin b = builtin_lookup(name);
        CHECK(b != BI_NONE, "tilec.h calls __tilec_%s, which builtins.def does not list", name);
        if (b != BI_NONE) seen[b] = true;
        calls++;
    }
    CHECK(calls > 50, "found only %d builtin calls in tilec.h", calls);
    for (int b = 1; b < BI_COUNT; b++)
        CHECK(seen[b], "builtins.def lists '%s', which tilec.h never calls", builtin_info((Builtin)b)->name);
    for (int b = 1; b < SB_COUNT; b++)
        CHECK(simt_seen[b], "frontend/simt.h lists simt_%s, which tilec.h never calls", simt_builtin_name((SimtBuiltin)b));
}

static void test_rows(void)
{
    CHECK_INT(builtin_lookup("load"), BI_LOAD);
    CHECK_INT(builtin_lookup("tile_load"), BI_LOAD);
    CHECK_INT(builtin_lookup("tile_atomic_cas"), BI_ATOMIC_CAS);
    CHECK_INT(builtin_lookup("tile_atomic_sub"), BI_ATOMIC_SUB);
    CHECK_INT(builtin_lookup("tile_atomic_xor"), BI_ATOMIC_XOR);
    CHECK_INT(builtin_lookup("loads"), BI_NONE);
    CHECK_INT(builtin_lookup("tile_"), BI_NONE);
    CHECK_INT(builtin_lookup(""), BI_NONE);
    CHECK_STR(builtin_info(BI_NONE)->name, "?");
    CHECK(builtin_info(BI_NONE)->opts[0] == NULL, "BI_NONE takes options");
    CHECK_INT(builtin_info(BI_CAST)->type_arg, 1);
    CHECK_INT(builtin_info(BI_FULL)->type_arg, 0);
    CHECK_INT(builtin_info(BI_EXP)->type_arg, -1);
    /* materialised: exactly the values computed before their readers */
    static const Builtin mat[] = {BI_LOAD, BI_STORE, BI_SUM, BI_ARGMIN, BI_CUMSUM, BI_GATHER, BI_ATOMIC_ADD, BI_MMA};
    static const Builtin inl[] = {BI_ZEROS, BI_CAST, BI_EXP, BI_FMA, BI_WHERE, BI_SCATTER, BI_RESHAPE, BI_CAT, BI_BID};
    for (size_t i = 0; i < sizeof mat / sizeof mat[0]; i++)
        CHECK(builtin_info(mat[i])->materialises, "%s should materialise", builtin_info(mat[i])->name);
    for (size_t i = 0; i < sizeof inl / sizeof inl[0]; i++)
        CHECK(!builtin_info(inl[i])->materialises, "%s should not materialise", builtin_info(inl[i])->name);
    /* option lists: the ones messages name */
    const char *const *o = builtin_info(BI_LOAD)->opts;
    int k = 0;
    bool latency = false;
    for (; o[k]; k++) latency |= !strcmp(o[k], "latency");
    CHECK(k == 5 && latency, "tile_load's options: %d, latency %d", k, latency);
    CHECK_STR(builtin_info(BI_CUMPROD)->opts[2], "reverse");
    CHECK(builtin_info(BI_TRANSPOSE)->opts[0] == NULL, "tile_transpose takes options");
    CHECK_INT(builtin_info(BI_ARGMAX)->cls, BCLASS_REDUCE);
    CHECK_INT(builtin_info(BI_EXTRACT)->cls, BCLASS_SHAPE);
    CHECK_INT(builtin_info(BI_DIM)->cls, BCLASS_QUERY);
}

static const Stmt *find_assign(const Stmt *st)
{
    if (!st) return NULL;
    if (st->kind == ST_ASSIGN) return st;
    const Stmt *kids[] = {st->then_s, st->else_s, st->init_s, st->step_s, st->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++) {
        const Stmt *r = find_assign(kids[i]);
        if (r) return r;
    }
    for (int i = 0; i < st->nitems; i++) {
        const Stmt *r = find_assign(st->items[i]);
        if (r) return r;
    }
    return NULL;
}

static void test_specializations(void)
{
    char dir[] = "/tmp/tilec-test-sema-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[64];
    snprintf(path, sizeof path, "%s/k.tile.c", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs("#include <tilec.h>\n"
          "TILE_KERNEL void k(TILE_ARRAY(const _Float16, 1) x, TILE_ARRAY(float, 1) y, TILE_CONST(int, 16, 64) N)\n"
          "{\n"
          "    float acc = tile_zeros(float, .shape = {N});\n"
          "    acc += tile_load(x, .index = {tile_bid(0)}, .shape = {N});\n"
          "    tile_store(y, acc, .index = {tile_bid(0)});\n"
          "}\n",
          f);
    fclose(f);
    diag_init(&(DiagOptions){.out = stderr});
    FrontendOptions fo = {.tilec_include_dir = "runtime"};
    Program *p = frontend_parse(path, &fo);
    remove(path);
    remove(dir);
    CHECK(p != NULL, "parse failed");
    if (!p) return;
    CHECK(sema_program(p), "sema failed");
    const Func *k = ast_find_func(p, "k");
    CHECK(k && k->nspecs == 2, "%d specializations", k ? k->nspecs : -1);
    if (!k || k->nspecs != 2) {
        program_free(p);
        return;
    }
    for (int s = 0; s < 2; s++) {
        const Func *t = k->specs[s].typed;
        int64_t n = s ? 64 : 16;
        CHECK_INT(k->specs[s].vals[0], n);
        CHECK(t != k && t->origin == k, "spec %d is not a copy of the kernel", s);
        const Stmt *a = find_assign(t->body);
        CHECK(a != NULL, "no assignment in spec %d", s);
        if (!a) continue;
        /* acc += load(...) is acc = acc + load(...), computed in float32 */
        CHECK(a->op == -1 && a->desugared, "op %d, desugared %d", a->op, a->desugared);
        const Expr *v = a->value;
        CHECK(v->kind == EX_BINARY && v->op == BOP_ADD, "value kind %d op %d", v->kind, v->op);
        CHECK_INT(v->op_dtype, DT_FLOAT32);
        CHECK_INT(v->dtype, DT_FLOAT32);
        CHECK(v->a->kind == EX_NAME && v->a->sym == a->target->sym, "left operand is not the target");
        CHECK(v->b->kind == EX_BUILTIN && v->b->bi == BI_LOAD && v->b->dtype == DT_FLOAT16, "right operand");
        CHECK(v->shape.rank == 1 && v->shape.dim[0] == n, "shape (%lld) in spec %d", (long long)v->shape.dim[0], s);
        CHECK(v->id >= 0 && v->id < t->nexprs && v->a->id < t->nexprs && v->a->id != v->id, "ids %d %d of %d", v->id,
              v->a->id, t->nexprs);
    }
    /* the parsed kernel stays as written */
    const Stmt *a = find_assign(k->body);
    CHECK(a && a->op == BOP_ADD && !a->desugared && a->value->dtype == DT_INVALID, "the parsed kernel was typed");
    program_free(p);
}

int main(void)
{
    test_table_matches_header();
    test_rows();
    test_specializations();
    return check_done("sema");
}
