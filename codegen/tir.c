/* tir.c: builds the tile IR of one specialization (tir.h) from the
 * placement the scan made (tir_place: the values, their homes and mirror
 * swizzles), lowers the typed body to operations in execution order
 * (tir_lower: materialisations hoisted before their readers, innermost
 * first, fragment conversions explicit), and prints it (tir_print). */
#include "codegen/lower.h"
#include "sema/targetset.h"
#include "sema/view.h"

/* ---- values --------------------------------------------------------------- */

static void set_value(Emitter *em, TirValue *v, const char *name, Dtype d, const Shape *s, bool mirror)
{
    v->name = name;
    v->dtype = d;
    v->shape = *s;
    v->n = shape_numel(s);
    Lay l = tv_lay(em, s);
    v->per_thread = l.E;
    v->vec = l.V;
    v->home = s->rank == 0 ? TIR_SCALAR : !em->tg->threads ? TIR_WHOLE : l.repl ? TIR_REPL : TIR_REGS;
    v->mirror = mirror && em->tg->threads && s->rank > 0;
    if (!v->mirror) return;
    /* the swizzle the mirror's reads want (tiles.c); recorded here */
    tv_mirror_swizzle(em, name, d, s, v->sym, v->expr ? v->expr->id : -1);
    const struct MirrorSwz *z = tv_mirror_find(em, name);
    if (z) {
        v->nswz = z->nsw;
        v->mirror_vec = z->vec;
        memcpy(v->swz, z->sw, sizeof v->swz);
    }
}

void tir_place(Emitter *em)
{
    const Func *f = em->k;
    int ne = f->nexprs + 1, ns = f->nsyms + 1;
    TirKernel *k = arena_alloc(em->ar, sizeof *k);
    k->f = f;
    k->cuda = em->tg->threads;
    k->threads = em->T;
    k->vec = em->Vk;
    k->by_sym = arena_alloc(em->ar, sizeof *k->by_sym * (size_t)ns);
    k->by_expr = arena_alloc(em->ar, sizeof *k->by_expr * (size_t)ne);
    int n = 0;
    for (int i = 0; i < ns; i++) n += em->syms[i] != NULL;
    for (int i = 0; i < ne; i++) n += em->tmp[i] != NULL;
    n += 2 * em->npipes; /* each pipelined loop's operand buffers */
    k->values = arena_alloc(em->ar, sizeof *k->values * (size_t)(n ? n : 1));
    /* variables first, by symbol id, then materialised expressions by id:
     * the order of their declarations */
    for (int i = 0; i < ns; i++) {
        Symbol *sym = em->syms[i];
        if (!sym) continue;
        TirValue *v = &k->values[k->nvalues++];
        v->sym = sym;
        set_value(em, v, tv_sym_name(em, sym), sym->dtype, &sym->shape, em->sym_smem[i]);
        if (em->sym_frag[i] && sym->shape.rank > 0) {
            v->home = TIR_FRAGMENT;
            v->frag_k = em->sym_kk[i] ? em->sym_kk[i] : 16;
            v->frag_blocks = mma_tiling(em, sym->shape.dim[0], sym->shape.dim[1]).bpw;
        }
        k->by_sym[i] = v;
    }
    for (int i = 0; i < ne; i++) {
        if (!em->tmp[i]) continue;
        TirValue *v = &k->values[k->nvalues++];
        v->expr = em->tmp_expr[i];
        set_value(em, v, em->tmp[i], em->tmp_dt[i], &em->tmp_shape[i], em->tmp_smem[i]);
        k->by_expr[i] = v;
    }
    for (int i = 0; i < em->npipes; i++) {
        TirValue *a = &k->values[k->nvalues++], *b = &k->values[k->nvalues++];
        pipeline_buffers(em, &em->pipes[i], a, b);
    }
    em->tir = k;
}

/* ---- lowering ------------------------------------------------------------ */

typedef struct Lower {
    Emitter *em;
    TirOp **tail;        /* where the next operation goes */
    const Stmt *stmt;    /* the statement being lowered, until its first op */
} Lower;

static TirOp *add(Lower *L, TirOpKind kind, SrcLoc loc);

/* After a definition of dst: its mirror, if it has one, is written. */
static void mirror(Lower *L, TirValue *dst, SrcLoc loc)
{
    if (dst && dst->mirror) add(L, TIR_TO_SMEM, loc)->dst = dst;
}

static TirOp *add(Lower *L, TirOpKind kind, SrcLoc loc)
{
    TirOp *op = arena_alloc(L->em->ar, sizeof *op);
    op->kind = kind;
    op->loc = loc;
    if (L->stmt) {
        op->stmt_start = true;
        op->loc = L->stmt->loc;
        L->stmt = NULL;
    }
    *L->tail = op;
    L->tail = &op->next;
    return op;
}

static void lower_stmt(Lower *L, Stmt *st);

/* Lowers into the list *head (restoring the current list after). */
#define INTO(L, head, body)              \
    do {                                 \
        TirOp **saved_ = (L)->tail;      \
        (L)->tail = (head);              \
        body;                            \
        (L)->tail = saved_;              \
    } while (0)

static TirValue *value_of_expr(Lower *L, const Expr *e)
{
    return L->em->tir->by_expr[e->id];
}

/* The materialised values inside e, innermost first, each before its
 * reader (what the old emitter's hoist did in place). */
static void hoist(Lower *L, Expr *e)
{
    if (!e || (e->is_const && e->shape.rank == 0)) return;
    if (e->kind == EX_CALL && !e->inl) { /* TILE_EXTERN: element-wise */
        for (int i = 0; i < e->nargs; i++) hoist(L, e->args[i]);
        return;
    }
    if (e->kind == EX_CALL) {
        Inline *in = e->inl;
        TirOp *op = add(L, TIR_CALL, e->loc);
        op->expr = e;
        op->dst = value_of_expr(L, e);
        INTO(L, &op->kids, {
            for (int i = 0; i < e->nargs; i++) {
                hoist(L, e->args[i]);
                TirOp *d = add(L, TIR_DEF, e->args[i]->loc);
                d->dst = L->em->tir->by_sym[in->params[i]->id];
                d->expr = e->args[i];
                mirror(L, d->dst, d->loc);
            }
            Stmt *body = in->body;
            for (int i = 0; i < body->nitems; i++) {
                Stmt *st = body->items[i];
                if (st->kind != ST_RETURN) {
                    lower_stmt(L, st);
                    continue;
                }
                if (!st->value || !op->dst) continue;
                hoist(L, st->value);
                TirOp *d = add(L, TIR_DEF, st->loc);
                d->dst = op->dst;
                d->expr = st->value;
                mirror(L, d->dst, d->loc);
            }
        });
        return;
    }
    if (e->kind == EX_BUILTIN) {
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MEM:
            if (e->bi == BI_STORE) return; /* its statement stores it */
            for (int i = 0; i < e->nopts; i++) hoist(L, e->opts[i].value);
            break;
        case BCLASS_REDUCE:
        case BCLASS_SCAN:
            hoist(L, e->args[0]);
            break;
        case BCLASS_INDEXED:
            for (int i = 1; i < e->nargs; i++) hoist(L, e->args[i]);
            hoist(L, ast_option(e, "index")->value);
            break;
        case BCLASS_MMA:
            for (int i = 0; i < e->nargs; i++) hoist(L, e->args[i]);
            break;
        case BCLASS_FACTORY: case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE:
        case BCLASS_SHAPE: case BCLASS_QUERY: case BCLASS_DEBUG:
            for (int i = 0; i < e->nargs; i++) hoist(L, e->args[i]);
            return; /* element-wise: evaluated where it is read (debug: statements) */
        case BCLASS_TARGET:
        case BCLASS_VIEW:
            return; /* a target if's condition: compiled to #if; a view's declaration: nothing to evaluate */
        }
        TirOp *op = add(L, TIR_MATERIALIZE, e->loc);
        op->expr = e;
        op->dst = value_of_expr(L, e); /* NULL for scatter */
        mirror(L, op->dst, e->loc);
        return;
    }
    hoist(L, e->a);
    hoist(L, e->b);
    hoist(L, e->c);
    for (int i = 0; i < e->nargs; i++) hoist(L, e->args[i]);
}

/* Fragment accumulators that the leaf statement st reads (other than as the
 * accumulator of its own update) go back to registers first. */
static void to_regs(Lower *L, Stmt *st)
{
    Emitter *em = L->em;
    if (!em->tg->threads) return;
    const Expr *skip = mma_is_frag_update(st) && em->sym_frag[st->target->sym->id] ? st->value->args[2] : NULL;
    const Expr *roots[2] = {st->init, st->value}; /* sema desugared x op= v */
    for (int i = 0; i < em->k->nsyms; i++) {
        if (!em->sym_frag[i] || !em->syms[i]) continue;
        for (int r = 0; r < 2; r++)
            if (ast_reads(roots[r], em->syms[i], skip)) {
                add(L, TIR_TO_REGS, st->loc)->dst = em->tir->by_sym[i];
                mirror(L, em->tir->by_sym[i], st->loc);
                break;
            }
    }
}

static void lower_list(Lower *L, Stmt *st)
{
    if (st && st->kind == ST_BLOCK) {
        for (int i = 0; i < st->nitems; i++) lower_stmt(L, st->items[i]);
    } else {
        lower_stmt(L, st);
    }
}

static void lower_stmt(Lower *L, Stmt *st)
{
    if (!st) return;
    Emitter *em = L->em;
    L->stmt = st;
    if (st->kind == ST_DECL || st->kind == ST_ASSIGN || st->kind == ST_EXPR || st->kind == ST_RETURN) to_regs(L, st);
    switch (st->kind) {
    case ST_DECL: {
        TirValue *v = em->tir->by_sym[st->sym->id];
        hoist(L, st->init);
        TirOp *d = add(L, TIR_DEF, st->loc);
        d->dst = v;
        d->expr = st->init;
        mirror(L, v, st->loc);
        if (em->sym_frag[st->sym->id]) {
            TirOp *c = add(L, TIR_TO_FRAG, st->loc);
            c->dst = v;
            c->expr = st->init;
        }
        break;
    }
    case ST_ASSIGN: {
        Symbol *sym = st->target->sym;
        TirValue *v = em->tir->by_sym[sym->id];
        if (em->sym_frag[sym->id]) { /* v = tile_mma(a, b, v) on the fragments */
            hoist(L, st->value->args[0]);
            hoist(L, st->value->args[1]);
            TirOp *u = add(L, TIR_MMA_UPDATE, st->loc);
            u->dst = v;
            u->expr = st->value;
            break;
        }
        hoist(L, st->value);
        TirOp *d = add(L, TIR_DEF, st->loc);
        d->dst = v;
        d->expr = st->value;
        mirror(L, v, st->loc);
        break;
    }
    case ST_EXPR: {
        Expr *v = st->value;
        if (v->kind == EX_BUILTIN && v->bi == BI_STORE) {
            for (int i = 0; i < v->nopts; i++) hoist(L, v->opts[i].value);
            hoist(L, v->args[1]);
            TirOp *s = add(L, TIR_STORE, st->loc);
            s->dst = value_of_expr(L, v);
            s->expr = v;
        } else if (v->kind == EX_BUILTIN && builtin_info(v->bi)->cls == BCLASS_DEBUG) {
            for (int i = 0; i < v->nargs; i++) hoist(L, v->args[i]);
            add(L, v->bi == BI_PRINTF ? TIR_PRINTF : TIR_ASSERT, st->loc)->expr = v;
        } else {
            hoist(L, v); /* calls, scatter and atomics */
        }
        break;
    }
    case ST_IF: {
        TirOp *op = add(L, TIR_IF, st->loc);
        op->stmt = st;
        op->expr = st->cond;
        if (!st->is_target) INTO(L, &op->pre, hoist(L, st->cond)); /* a target if's is #if */
        INTO(L, &op->kids, lower_stmt(L, st->then_s));
        if (st->else_s) INTO(L, &op->else_kids, lower_stmt(L, st->else_s));
        break;
    }
    case ST_FOR: {
        const PipeLoop *pl = NULL;
        for (int i = 0; i < em->npipes; i++)
            if (em->pipes[i].loop == st) pl = &em->pipes[i];
        TirOp *op = add(L, pl ? TIR_PIPELINED_FOR : TIR_FOR, st->loc);
        op->stmt = st;
        op->expr = st->cond;
        if (pl) { /* a copy: the emitter's array does not outlive it */
            PipeLoop *copy = arena_alloc(em->ar, sizeof *copy);
            *copy = *pl;
            op->pipe = copy; /* its buffers follow the values of variables and expressions */
            int at = em->tir->nvalues - 2 * em->npipes + 2 * (int)(pl - em->pipes);
            op->bufs[0] = &em->tir->values[at];
            op->bufs[1] = &em->tir->values[at + 1];
            op->stages = pipeline_stages(em, pl);
        }
        if (st->init_s) INTO(L, &op->init, lower_list(L, st->init_s));
        if (pl) break; /* pipeline.c lowers the rest itself */
        if (st->cond) INTO(L, &op->pre, hoist(L, st->cond));
        INTO(L, &op->kids, lower_stmt(L, st->body));
        if (st->step_s) INTO(L, &op->step, lower_stmt(L, st->step_s));
        break;
    }
    case ST_WHILE: {
        TirOp *op = add(L, TIR_WHILE, st->loc);
        op->stmt = st;
        op->expr = st->cond;
        INTO(L, &op->pre, hoist(L, st->cond));
        INTO(L, &op->kids, lower_stmt(L, st->body));
        break;
    }
    case ST_RETURN:
        add(L, TIR_RETURN, st->loc);
        break;
    case ST_BLOCK: {
        if (st->sym && st->sym->view) { /* a view's declaration (sema): printed, nothing runs */
            add(L, TIR_NOP, st->loc)->stmt = st;
            break;
        }
        TirOp *op = add(L, TIR_BLOCK, st->loc);
        op->stmt = st;
        INTO(L, &op->kids, for (int i = 0; i < st->nitems; i++) lower_stmt(L, st->items[i]));
        break;
    }
    case ST_BREAK:
        add(L, TIR_BREAK, st->loc);
        break;
    case ST_CONTINUE:
        add(L, TIR_CONTINUE, st->loc);
        break;
    }
    if (L->stmt == st) add(L, TIR_NOP, st->loc); /* a statement without effect keeps its #line */
    L->stmt = NULL;
}

/* ---- conversion elimination ------------------------------------------------ */

static bool list_touches(const TirOp *op, const TirValue *acc);

/* Whether operation op (or anything inside it) may change acc's fragments:
 * an update or initialisation of them, or a pipelined loop on them. */
static bool op_touches(const TirOp *op, const TirValue *acc)
{
    if ((op->kind == TIR_MMA_UPDATE || op->kind == TIR_TO_FRAG) && op->dst == acc) return true;
    if (op->kind == TIR_PIPELINED_FOR && op->pipe && acc->sym == op->pipe->acc) return true;
    return list_touches(op->pre, acc) || list_touches(op->kids, acc) || list_touches(op->else_kids, acc) ||
           list_touches(op->init, acc) || list_touches(op->step, acc);
}

static bool list_touches(const TirOp *op, const TirValue *acc)
{
    for (; op; op = op->next)
        if (op_touches(op, acc)) return true;
    return false;
}

/* A fragment accumulator's registers are refreshed before every statement
 * that reads it (TO_REGS).  A refresh is redundant when an earlier one in
 * the same list reached it with nothing in between that could change the
 * fragments: the registers of a fragment accumulator are written by
 * nothing else (it has no other assignment).  Drops those, in every list;
 * a dropped statement start hands its #line to the next operation. */
static void eliminate_conversions(TirOp **list)
{
    for (TirOp **p = list; *p;) {
        TirOp *op = *p;
        eliminate_conversions(&op->pre);
        eliminate_conversions(&op->kids);
        eliminate_conversions(&op->else_kids);
        eliminate_conversions(&op->init);
        eliminate_conversions(&op->step);
        bool fresh = false;
        if (op->kind == TIR_TO_REGS)
            for (const TirOp *q = *list; q != op; q = q->next) {
                if (q->kind == TIR_TO_REGS && q->dst == op->dst) fresh = true;
                else if (op_touches(q, op->dst)) fresh = false;
            }
        if (!fresh) {
            p = &op->next;
            continue;
        }
        if (op->stmt_start && (!op->next || op->next->stmt_start)) {
            op->kind = TIR_NOP; /* the statement's #line stays */
            p = &op->next;
            continue;
        }
        if (op->stmt_start) {
            op->next->stmt_start = true;
            op->next->loc = op->loc;
        }
        *p = op->next;
    }
}

void tir_lower(Emitter *em)
{
    Lower L = {.em = em, .tail = &em->tir->body};
    lower_stmt(&L, em->k->body);
    eliminate_conversions(&em->tir->body);
}

/* ---- printing ------------------------------------------------------------- */

static void print_expr(FILE *o, const TirKernel *k, const Expr *e, const Expr *self);

static void print_cval(FILE *o, const Expr *e)
{
    if (e->cval.is_float) fprintf(o, "%.9g", e->cval.f);
    else if (e->cval.is_unsigned) fprintf(o, "%" PRIu64, e->cval.u);
    else fprintf(o, "%" PRId64, e->cval.i);
}

static void print_args(FILE *o, const TirKernel *k, const Expr *e)
{
    fputc('(', o);
    for (int i = 0; i < e->nargs; i++) {
        fputs(i ? ", " : "", o);
        print_expr(o, k, e->args[i], NULL);
    }
    for (int i = 0; i < e->nopts; i++) {
        fprintf(o, "%s.%s=", e->nargs || i ? ", " : "", e->opts[i].name);
        print_expr(o, k, e->opts[i].value, NULL);
    }
    fputc(')', o);
}

TirValue *tir_materialized(const TirKernel *k, const Expr *e)
{
    TirValue *v = e->id >= 0 && e->id <= k->f->nexprs ? k->by_expr[e->id] : NULL;
    return v && v->expr == e ? v : NULL;
}

/* e with every materialised node other than self read from its value. */
static void print_expr(FILE *o, const TirKernel *k, const Expr *e, const Expr *self)
{
    if (!e) return;
    const TirValue *m = e != self ? tir_materialized(k, e) : NULL;
    if (m) {
        fprintf(o, "%%%s", m->name);
        return;
    }
    if (e->kind == EX_FLOAT) {
        fprintf(o, "%.9g", e->fval);
        return;
    }
    if (e->is_const && e->shape.rank == 0 && e->kind != EX_NAME) {
        print_cval(o, e);
        return;
    }
    switch (e->kind) {
    case EX_INT: print_cval(o, e); return;
    case EX_FLOAT: return;
    case EX_NAME:
        if (e->sym && e->sym->kind == SYM_VAR && k->by_sym[e->sym->id]) fprintf(o, "%%%s", k->by_sym[e->sym->id]->name);
        else if (e->sym && e->sym->is_const) fprintf(o, "%" PRId64, e->sym->cval.i);
        else fputs(e->name, o);
        return;
    case EX_UNARY:
        fprintf(o, "%s(", ast_unary_op_spelling((UnaryOp)e->op));
        print_expr(o, k, e->a, self);
        fputc(')', o);
        return;
    case EX_BINARY:
        fputc('(', o);
        print_expr(o, k, e->a, self);
        fprintf(o, " %s ", ast_binary_op_spelling((BinaryOp)e->op));
        print_expr(o, k, e->b, self);
        fputc(')', o);
        return;
    case EX_COND:
        fputc('(', o);
        print_expr(o, k, e->a, self);
        fputs(" ? ", o);
        print_expr(o, k, e->b, self);
        fputs(" : ", o);
        print_expr(o, k, e->c, self);
        fputc(')', o);
        return;
    case EX_CAST:
        fprintf(o, "%s(", dtype_name(e->dtype));
        print_expr(o, k, e->a, self);
        fputc(')', o);
        return;
    case EX_CALL:
        fprintf(o, "%s", e->name);
        print_args(o, k, e);
        return;
    case EX_BUILTIN:
        fputs(builtin_info(e->bi)->name, o);
        print_args(o, k, e);
        return;
    case EX_LIST:
        fputc('{', o);
        for (int i = 0; i < e->nargs; i++) {
            fputs(i ? ", " : "", o);
            print_expr(o, k, e->args[i], self);
        }
        fputc('}', o);
        return;
    case EX_TYPE:
        fputs(dtype_name(e->type.dtype), o);
        return;
    case EX_STRING:
        fputc('"', o);
        ast_write_escaped(o, e->str, e->nstr);
        fputc('"', o);
        return;
    case EX_MEMBER: case EX_STRUCT: /* sema leaves none of these */
        fputs("?", o);
        return;
    }
}

static void print_shape(FILE *o, const Shape *s)
{
    fputc('(', o);
    for (int i = 0; i < s->rank; i++) fprintf(o, "%s%" PRId64, i ? "," : "", s->dim[i]);
    fputs(s->rank == 1 ? ",)" : ")", o);
}

/* v's swizzles composed before its layout, in CuTe's notation (the last
 * applied first): "Sw<5,0,7> o Sw<5,0,5> o ". */
static void print_swizzles(FILE *o, const TirValue *v)
{
    for (int j = v->nswz - 1; j >= 0; j--) {
        char sw[32];
        layout_swizzle_format(&v->swz[j], sw, sizeof sw);
        fprintf(o, "%s o ", sw);
    }
}

/* A value's home, with its layout in CuTe notation: for register tiles the
 * thread-value layout (thread, value) -> row-major element. */
static void print_home(FILE *o, const TirKernel *k, const TirValue *v)
{
    switch (v->home) {
    case TIR_SCALAR: fputs("scalar", o); break;
    case TIR_WHOLE: fprintf(o, "whole %" PRId64 ":1", v->n); break;
    case TIR_SMEM:
        fputs("smem ", o);
        print_swizzles(o, v);
        fprintf(o, "(%" PRId64 ",%" PRId64 "):(%" PRId64 ",1)", v->shape.dim[0], v->shape.dim[1], v->shape.dim[1]);
        if (v->stages > 1) fprintf(o, ", %d stages", v->stages);
        return;
    case TIR_REPL:
        fprintf(o, "replicated ((%" PRId64 ",%" PRId64 "),1):((1,0),0)", v->n, k->threads / v->n);
        break;
    case TIR_REGS:
    case TIR_FRAGMENT: {
        Layout tv;
        char buf[LAYOUT_STR_MAX];
        int64_t n = v->n;
        if (layout_tv_row_major(1, &n, k->threads, v->vec, &tv, NULL, 0)) layout_format(&tv, buf, sizeof buf);
        else snprintf(buf, sizeof buf, "?");
        fprintf(o, "regs %s", buf);
        if (v->home == TIR_FRAGMENT)
            fprintf(o, " + fragments m16n16k%d, %" PRId64 " block%s a warp", v->frag_k, v->frag_blocks,
                    v->frag_blocks == 1 ? "" : "s");
        break;
    }
    }
    if (!v->mirror) return;
    fputs(" + smem ", o);
    print_swizzles(o, v);
    fprintf(o, "%" PRId64 ":1", v->n);
    if (v->mirror_vec) fprintf(o, ", written by runs of %d", v->mirror_vec);
}

static void print_ops(FILE *o, const TirKernel *k, const TirOp *op, int ind);

static void indent(FILE *o, int ind)
{
    for (int i = 0; i < ind; i++) fputs("  ", o);
}

static void print_block(FILE *o, const TirKernel *k, const char *head, const TirOp *ops, int ind)
{
    indent(o, ind);
    fprintf(o, "%s {\n", head);
    print_ops(o, k, ops, ind + 1);
    indent(o, ind);
    fputs("}\n", o);
}

static void print_op(FILE *o, const TirKernel *k, const TirOp *op, int ind)
{
    const TirValue *v = op->dst;
    switch (op->kind) {
    case TIR_MATERIALIZE:
        indent(o, ind);
        if (v) fprintf(o, "%%%s = ", v->name);
        print_expr(o, k, op->expr, op->expr);
        fputc('\n', o);
        return;
    case TIR_CALL:
        indent(o, ind);
        fprintf(o, "inline %s%s%s {\n", op->expr->name, v ? " -> %" : "", v ? v->name : "");
        print_ops(o, k, op->kids, ind + 1);
        indent(o, ind);
        fputs("}\n", o);
        return;
    case TIR_DEF:
        indent(o, ind);
        fprintf(o, "%%%s = ", v->name);
        print_expr(o, k, op->expr, NULL);
        fputc('\n', o);
        return;
    case TIR_STORE:
        indent(o, ind);
        if (v) fprintf(o, "%%%s = ", v->name);
        print_expr(o, k, op->expr->args[1], NULL);
        fputc('\n', o);
        indent(o, ind);
        fprintf(o, "store %s <- %%%s", op->expr->args[0]->name, v ? v->name : "?");
        for (int i = 0; i < op->expr->nopts; i++) {
            fprintf(o, ", .%s=", op->expr->opts[i].name);
            print_expr(o, k, op->expr->opts[i].value, NULL);
        }
        fputc('\n', o);
        return;
    case TIR_TO_FRAG:
        indent(o, ind);
        fprintf(o, "convert %%%s regs -> fragments\n", v->name);
        return;
    case TIR_TO_REGS:
        indent(o, ind);
        fprintf(o, "convert %%%s fragments -> regs\n", v->name);
        return;
    case TIR_TO_SMEM:
        indent(o, ind);
        fprintf(o, "convert %%%s regs -> smem\n", v->name);
        return;
    case TIR_MMA_UPDATE:
        indent(o, ind);
        fprintf(o, "%%%s = ", v->name);
        print_expr(o, k, op->expr, op->expr);
        fputs(" on fragments\n", o);
        return;
    case TIR_IF:
        print_ops(o, k, op->pre, ind);
        indent(o, ind);
        if (op->stmt->is_target) {
            char d[256];
            targetset_describe(op->stmt->targets, d, sizeof d);
            fprintf(o, "if target(%s) {\n", d);
        } else {
            fputs("if ", o);
            print_expr(o, k, op->expr, NULL);
            fputs(" {\n", o);
        }
        print_ops(o, k, op->kids, ind + 1);
        if (op->else_kids || (op->stmt && op->stmt->else_s)) {
            indent(o, ind);
            fputs("} else {\n", o);
            print_ops(o, k, op->else_kids, ind + 1);
        }
        indent(o, ind);
        fputs("}\n", o);
        return;
    case TIR_FOR:
    case TIR_WHILE:
        if (op->init) print_block(o, k, "init", op->init, ind);
        indent(o, ind);
        fputs("loop {\n", o);
        if (op->expr) {
            print_ops(o, k, op->pre, ind + 1);
            indent(o, ind + 1);
            fputs("break unless ", o);
            print_expr(o, k, op->expr, NULL);
            fputc('\n', o);
        }
        print_ops(o, k, op->kids, ind + 1);
        if (op->step) print_block(o, k, "step", op->step, ind + 1);
        indent(o, ind);
        fputs("}\n", o);
        return;
    case TIR_PIPELINED_FOR: {
        const PipeLoop *pl = op->pipe;
        if (op->init) print_block(o, k, "init", op->init, ind);
        indent(o, ind);
        fprintf(o, "pipelined K loop (%s < ", pl->k->name);
        print_expr(o, k, pl->hi, NULL);
        fprintf(o, "): %s = mma(", pl->acc->name);
        for (int i = 0; i < 2; i++) {
            fprintf(o, "load(%s) -> ", pl->load[i]->args[0]->name);
            if (pl->boxed[i]) fprintf(o, "box of %" PRId64 " -> ", pl->box[i]);
            fprintf(o, "%%%s, ", op->bufs[i]->name);
        }
        fprintf(o, "%s), copied %d step%s ahead", pl->acc->name, op->stages - 1, op->stages > 2 ? "s" : "");
        if (pl->wg_n) /* the products' warpgroups (pipeline.c) */
            fprintf(o, ", wgmma m64n%" PRId64 "k16 on sm_90a (%" PRId64 " x %d warpgroups)", pl->wn, pl->M / 64, pl->wg_n);
        fputc('\n', o);
        return;
    }
    case TIR_BLOCK:
        print_block(o, k, "block", op->kids, ind);
        return;
    case TIR_BREAK: indent(o, ind); fputs("break\n", o); return;
    case TIR_CONTINUE: indent(o, ind); fputs("continue\n", o); return;
    case TIR_RETURN: indent(o, ind); fputs("return\n", o); return;
    case TIR_PRINTF:
    case TIR_ASSERT:
        indent(o, ind);
        fputs(op->kind == TIR_PRINTF ? "printf" : "assert", o);
        print_args(o, k, op->expr);
        fputc('\n', o);
        return;
    case TIR_NOP:
        if (op->stmt && op->stmt->sym && op->stmt->sym->view) {
            const View *v = op->stmt->sym->view;
            indent(o, ind);
            fprintf(o, "view %s = %s o ", op->stmt->name, v->base->name);
            view_print(o, v);
            fputc('\n', o);
        }
        return;
    }
}

static void print_ops(FILE *o, const TirKernel *k, const TirOp *op, int ind)
{
    for (; op; op = op->next) print_op(o, k, op, ind);
}

void tir_print(FILE *o, const TirKernel *k, const char *label)
{
    fprintf(o, "kernel %s", k->f->name);
    if (label) fprintf(o, " [%s]", label);
    if (k->cuda)
        fprintf(o, ": %d threads, vectors of %d, %d + %d bytes of shared memory\n", k->threads, k->vec, k->smem_static,
                k->smem_dynamic);
    else
        fputs(": host, one thread a block\n", o);
    fputs("values\n", o);
    for (int i = 0; i < k->nvalues; i++) {
        const TirValue *v = &k->values[i];
        fprintf(o, "  %%%-6s %-10s ", v->name, v->sym ? v->sym->name : "");
        fprintf(o, "%s ", dtype_name(v->dtype));
        print_shape(o, &v->shape);
        fputc(' ', o);
        print_home(o, k, v);
        fputc('\n', o);
    }
    fputs("body\n", o);
    print_ops(o, k, k->body, 1);
}

bool codegen_tir(Program *p, const CodegenOptions *co, bool cuda, FILE *o)
{
    bool ok = true;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel) continue;
        for (int s = 0; s < f->nspecs; s++) {
            char *code = NULL;
            size_t len = 0;
            FILE *sink = open_memstream(&code, &len);
            if (!sink) return false;
            KernelPlan plan;
            TirKernel *k = NULL;
            bool lowered = body_lower(sink, p, f->specs[s].typed, cuda, co, &plan, &k);
            fclose(sink);
            free(code);
            if (!lowered || !k) {
                ok = false;
                continue;
            }
            char label[256];
            ast_spec_label(f, f->specs[s].vals, label, sizeof label);
            tir_print(o, k, ast_nconst(f) ? label : NULL);
            FlashLoop fl;
            if (cuda && flash_find(f->specs[s].typed, &fl) && co->opt_level > 0)
                fprintf(o, "flash variant: the loop at %d:%d as tilec_flash_fwd, %d warps of %d rows, q (%" PRId64
                        ",%" PRId64 "), key blocks of %" PRId64 " in %d stages, k from %s axis %d, v from %s axis %d%s, %s, "
                        "products on %s\n",
                        fl.loop->loc.line, fl.loop->loc.col, fl.warps, 16 * fl.mt, fl.BM, fl.D, fl.BN, fl.stages,
                        fl.k.param->name, fl.k.key_axis, fl.v.param->name, fl.v.key_axis, fl.mask ? ", masked" : "",
                        (const char *[]){"exp2", "exp2 approx", "exp", "exp approx"}[fl.exp],
                        flash_may_wgmma(&fl) ? "wgmma (sm_90a builds; mma.sync on sm_80)" : "mma.sync");
            fputc('\n', o);
        }
    }
    return ok;
}
