/* ast_dump.c: prints the AST as indented text, one node per line, each with
 * its line:col.  The format is stable (golden tests depend on it): change it
 * only together with tests/golden/. */
#include "frontend/ast_dump.h"


#include <inttypes.h>
#include <string.h>

static void indent(FILE *o, int d)
{
    for (int i = 0; i < d; i++) fputs("  ", o);
}

static void loc(FILE *o, SrcLoc l)
{
    fprintf(o, " @%d:%d", l.line, l.col);
}

static void type_info(FILE *o, const Expr *e, bool typed)
{
    if (!typed || e->kind == EX_LIST || e->kind == EX_STRING || e->kind == EX_STRUCT) return;
    char buf[SHAPE_FMT_MAX];
    shape_format(&e->shape, buf, sizeof buf);
    fprintf(o, " : %s %s", e->dtype == DT_INVALID ? "void" : dtype_name(e->dtype), buf);
    if (e->is_const) {
        if (e->cval.is_float) fprintf(o, " = %.17g", e->cval.f);
        else if (e->cval.is_unsigned) fprintf(o, " = %" PRIu64, e->cval.u);
        else fprintf(o, " = %" PRId64, e->cval.i);
    }
}

static void dump_expr(FILE *o, const Expr *e, int d, bool typed);

/* A TILE_VIEW declaration's line: "view const _Float16 xc rank 3". */
static void view_header(FILE *o, const Stmt *s)
{
    fprintf(o, "view %s%s %s rank %d", s->type.is_const ? "const " : "", s->type.spelling, s->name, s->type.view_rank);
}

static void dump_stmt(FILE *o, const Stmt *s, int d, bool typed);

static void dump_children(FILE *o, const Expr *e, int d, bool typed)
{
    if (typed && e->kind == EX_CALL && e->inl) {
        for (int i = 0; i < e->nargs; i++) dump_expr(o, e->args[i], d, typed);
        for (int i = 0; i < d; i++) fputs("  ", o);
        fputs("inlined:\n", o);
        dump_stmt(o, e->inl->body, d + 1, typed);
        return;
    }
    if (e->a) dump_expr(o, e->a, d, typed);
    if (e->b) dump_expr(o, e->b, d, typed);
    if (e->c) dump_expr(o, e->c, d, typed);
    for (int i = 0; i < e->nargs; i++) dump_expr(o, e->args[i], d, typed);
    for (int i = 0; i < e->nopts; i++) {
        indent(o, d);
        fprintf(o, "option .%s", e->opts[i].name);
        loc(o, e->opts[i].loc);
        fputc('\n', o);
        dump_expr(o, e->opts[i].value, d + 1, typed);
    }
}

static void dump_expr(FILE *o, const Expr *e, int d, bool typed)
{
    indent(o, d);
    switch (e->kind) {
    case EX_INT: fprintf(o, "int %" PRId64, e->ival); break;
    case EX_FLOAT: fprintf(o, "float %.17g", e->fval); break;
    case EX_NAME: fprintf(o, "name %s", e->name); break;
    case EX_UNARY: fprintf(o, "unary %s", ast_unary_op_spelling((UnaryOp)e->op)); break;
    case EX_BINARY: fprintf(o, "binary %s", ast_binary_op_spelling((BinaryOp)e->op)); break;
    case EX_COND: fputs("cond ?:", o); break;
    case EX_CAST: fprintf(o, "cast %s", e->type.spelling); break;
    case EX_CALL: fprintf(o, "call %s", e->name); break;
    case EX_BUILTIN: fprintf(o, "builtin %s", e->name); break;
    case EX_LIST: fputs("list", o); break;
    case EX_TYPE: fprintf(o, "type %s (%s)", e->type.spelling, dtype_name(e->type.dtype)); break;
    case EX_STRING:
        fputs("string \"", o);
        ast_write_escaped(o, e->str, e->nstr);
        fputc('"', o);
        break;
    case EX_MEMBER: fprintf(o, "member %s", e->name); break;
    case EX_STRUCT: fprintf(o, "struct %s", e->type.spelling); break;
    }
    type_info(o, e, typed);
    loc(o, e->loc);
    fputc('\n', o);
    dump_children(o, e, d + 1, typed);
}

static void dump_stmt(FILE *o, const Stmt *s, int d, bool typed);

static void dump_labeled(FILE *o, const char *label, const Stmt *s, int d, bool typed)
{
    if (!s) return;
    indent(o, d);
    fprintf(o, "%s:\n", label);
    dump_stmt(o, s, d + 1, typed);
}

static void dump_stmt(FILE *o, const Stmt *s, int d, bool typed)
{
    indent(o, d);
    switch (s->kind) {
    case ST_DECL:
        if (s->type.view_rank) view_header(o, s);
        else if (s->type.temp_rank) fprintf(o, "temp %s %s rank %d", s->type.spelling, s->name, s->type.temp_rank);
        else fprintf(o, "decl %s %s%s", s->type.spelling, s->name, s->type.is_const ? " const" : "");
        loc(o, s->loc);
        fputc('\n', o);
        if (s->init) dump_expr(o, s->init, d + 1, typed);
        return;
    case ST_ASSIGN:
        /* a compound assignment sema desugared prints as written */
        fprintf(o, "assign %s%s=", s->target->name,
                s->desugared ? ast_binary_op_spelling((BinaryOp)s->value->op)
                : s->op < 0  ? ""
                             : ast_binary_op_spelling((BinaryOp)s->op));
        loc(o, s->loc);
        fputc('\n', o);
        dump_expr(o, s->desugared ? s->value->b : s->value, d + 1, typed);
        return;
    case ST_EXPR:
        fputs("expr", o);
        loc(o, s->loc);
        fputc('\n', o);
        dump_expr(o, s->value, d + 1, typed);
        return;
    case ST_IF:
        fputs("if", o);
        loc(o, s->loc);
        fputc('\n', o);
        dump_expr(o, s->cond, d + 1, typed);
        dump_labeled(o, "then", s->then_s, d + 1, typed);
        dump_labeled(o, "else", s->else_s, d + 1, typed);
        return;
    case ST_FOR:
        fputs("for", o);
        loc(o, s->loc);
        fputc('\n', o);
        dump_labeled(o, "init", s->init_s, d + 1, typed);
        if (s->cond) {
            indent(o, d + 1);
            fputs("cond:\n", o);
            dump_expr(o, s->cond, d + 2, typed);
        }
        dump_labeled(o, "step", s->step_s, d + 1, typed);
        dump_labeled(o, "body", s->body, d + 1, typed);
        return;
    case ST_WHILE:
        fputs("while", o);
        loc(o, s->loc);
        fputc('\n', o);
        dump_expr(o, s->cond, d + 1, typed);
        dump_labeled(o, "body", s->body, d + 1, typed);
        return;
    case ST_RETURN:
        fputs("return", o);
        loc(o, s->loc);
        fputc('\n', o);
        if (s->value) dump_expr(o, s->value, d + 1, typed);
        return;
    case ST_BLOCK:
        if (s->type.view_rank) { /* a view's declaration, which sema leaves as an empty block */
            view_header(o, s);
            loc(o, s->loc);
            fputc('\n', o);
            if (s->init) dump_expr(o, s->init, d + 1, false);
            return;
        }
        fputs("block", o);
        loc(o, s->loc);
        fputc('\n', o);
        for (int i = 0; i < s->nitems; i++) dump_stmt(o, s->items[i], d + 1, typed);
        return;
    case ST_BREAK: fputs("break", o); loc(o, s->loc); fputc('\n', o); return;
    case ST_CONTINUE: fputs("continue", o); loc(o, s->loc); fputc('\n', o); return;
    }
}

void ast_dump_program(FILE *o, const Program *p, bool typed)
{
    fprintf(o, "file %s\n", p->main_file);
    for (int i = 0; i < p->nfuncs; i++) {
        /* Typed dumps show tile functions where they are inlined. */
        if (typed && !p->funcs[i]->is_kernel) continue;
        ast_dump_func(o, p->funcs[i], typed, NULL);
    }
}

void ast_dump_func(FILE *o, const Func *f, bool typed, const char *label)
{
    {
        fprintf(o, "%s %s %s",
                f->is_array_kernel ? "array kernel" : f->is_graph ? "graph" : f->is_kernel ? "kernel" : "function",
                f->ret.spelling, f->name);
        loc(o, f->loc);
        if (label) fprintf(o, " [%s]", label);
        fputc('\n', o);
        if (f->doc) {
            indent(o, 1);
            fputs("doc \"", o);
            for (const char *c = f->doc; *c; c++) {
                if (*c == '\n') fputs("\\n", o);
                else if (*c == '"' || *c == '\\') fprintf(o, "\\%c", *c);
                else fputc(*c, o);
            }
            fputs("\"\n", o);
        }
        for (int j = 0; j < f->nparams; j++) {
            const Param *pa = &f->params[j];
            indent(o, 1);
            switch (pa->kind) {
            case PARAM_ARRAY:
                fprintf(o, "param %s %s: %s%s rank %d", pa->whole ? "ndarray" : "array", pa->name,
                        pa->readonly ? "const " : "", pa->type.spelling, pa->rank);
                break;
            case PARAM_SCALAR:
                fprintf(o, "param scalar %s: %s", pa->name, pa->type.spelling);
                break;
            case PARAM_CONST:
                fprintf(o, "param const %s: %s values", pa->name, pa->type.spelling);
                for (int k = 0; k < pa->nspecs; k++) fprintf(o, "%s%" PRId64, k ? "," : " ", pa->specs[k]);
                if (pa->tunable) fputs(" tunable", o);
                break;
            }
            fprintf(o, " (%s)", dtype_name(pa->type.dtype));
            loc(o, pa->loc);
            fputc('\n', o);
        }
        if (f->body) dump_stmt(o, f->body, 1, typed);
    }
}
