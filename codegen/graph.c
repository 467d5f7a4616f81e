/* graph.c: the launch functions of kernel graphs (TILE_GRAPH; the plan is
 * sema/graph.h).  A graph's launcher checks its arrays, works out the
 * shape of every temporary from the call that first writes it (the
 * callee's broadcasting rules: an element-wise kernel's outputs have the
 * shape of its other outputs, or of its inputs broadcast together; a
 * reduction's are its operands' broadcast without, or kept along, the
 * reduced axis, or all of it), places the stored ones in the caller's
 * workspace, and runs the fused parts in order on the stream.  The same C
 * serves the CUDA and the host target: it only calls the parts' launchers. */
#include <inttypes.h>
#include <string.h>

#include "codegen/emit.h"
#include "sema/graph.h"

/* The C expression of graph array or temporary `name` as a descriptor pointer. */
static void arg_expr(FILE *o, const Graph *gr, const char *name)
{
    int t = graph_temp(gr, name);
    if (t >= 0) fprintf(o, "&t_[%d]", t);
    else fputs(name, o);
}

static void array_params(FILE *o, const Func *g, bool with_scalars)
{
    for (int i = 0; i < g->nparams; i++) {
        const Param *p = &g->params[i];
        if (p->kind == PARAM_ARRAY) fprintf(o, ", const tilec_array *%s", p->name);
        else if (with_scalars) fprintf(o, ", %s %s", emit_scalar_api_type(p->type.dtype), p->name);
    }
}

static void array_args(FILE *o, const Func *g)
{
    for (int i = 0; i < g->nparams; i++)
        if (g->params[i].kind == PARAM_ARRAY) fprintf(o, ", %s", g->params[i].name);
}

void emit_graph_prototype(FILE *o, const CodegenOptions *co, const Func *g, bool size_fn)
{
    fputs("tilec_status ", o);
    emit_launcher_name(o, co, g);
    if (size_fn) {
        fputs("_workspace_size(size_t *bytes", o);
        array_params(o, g, false);
    } else {
        fputs("(tilec_stream stream, void *workspace, size_t workspace_bytes", o);
        array_params(o, g, true);
    }
    fputc(')', o);
}

/* Whether the callee's parameter a is an input its space is the broadcast
 * of (an element-wise kernel's inputs, a reduction's operands). */
static bool space_input(const GraphCall *c, int a)
{
    const Param *p = &c->callee->params[a];
    return p->kind == PARAM_ARRAY && c->arg[a] && p->ak_role == (c->callee->ak_axis >= 0 ? AK_IN_OPERAND : AK_IN);
}

/* Fills in the shape of each temporary call ci writes first. */
static void temp_shapes(FILE *o, const Func *g, int ci)
{
    const Graph *gr = g->graph;
    const GraphCall *c = &gr->calls[ci];
    const Func *k = c->callee;
    bool rows = k->ak_axis >= 0;
    bool any = false;
    for (int t = 0; t < gr->ntemps; t++) any |= gr->temps[t].writer == ci;
    if (!any) return;
    fprintf(o, "    { /* written by '%s' (line %d) */\n", k->name, c->loc.line);
    /* the inputs that make its space */
    int n = 0;
    for (int a = 0; a < k->nparams; a++) n += space_input(c, a);
    fprintf(o, "        int64_t sp_[%d] = {", k->ak_space_rank);
    for (int d = 0; d < k->ak_space_rank; d++) fprintf(o, "%s1", d ? ", " : "");
    fputs("};\n", o);
    /* an element-wise kernel's outputs have one shape: an output already known fixes it */
    int known = -1;
    if (!rows)
        for (int a = 0; a < k->nparams && known < 0; a++) {
            const Param *p = &k->params[a];
            if (p->kind != PARAM_ARRAY || !c->arg[a] || (p->ak_role != AK_OUT && p->ak_role != AK_OUT_REF)) continue;
            int t = graph_temp(gr, c->arg[a]);
            if (t < 0 || gr->temps[t].writer < ci) known = a;
        }
    if (known < 0 && k->ak_matmul) {
        /* a matrix product: (M, K) of its first operand's arrays, (K, N) of its second's */
        for (int pass = 0; pass < 2; pass++) {
            AkRole role = pass ? AK_IN_B : AK_IN_A;
            int m = 0;
            for (int a = 0; a < k->nparams; a++) m += k->params[a].ak_role == role && c->arg[a];
            fprintf(o, "        const tilec_array *op%d_[%d] = {", pass, m);
            for (int a = 0, q = 0; a < k->nparams; a++) {
                if (k->params[a].ak_role != role || !c->arg[a]) continue;
                fputs(q++ ? ", " : "", o);
                arg_expr(o, gr, c->arg[a]);
            }
            fprintf(o, "};\n        static const char *const opn%d_[%d] = {", pass, m);
            for (int a = 0, q = 0; a < k->nparams; a++)
                if (k->params[a].ak_role == role && c->arg[a]) fprintf(o, "%s\"%s\"", q++ ? ", " : "", c->arg[a]);
            fprintf(o, "};\n        int64_t s%d_[2];\n", pass);
            fprintf(o, "        if ((st_ = tilec_broadcast_shape(%d, op%d_, opn%d_, 2, s%d_)) != TILEC_OK) return st_;\n", m,
                    pass, pass, pass);
        }
        fputs("        if ((st_ = tilec_product_shape(s0_, s1_, sp_)) != TILEC_OK) return st_;\n", o);
    } else if (known >= 0) {
        fputs("        const tilec_array *o_ = ", o);
        arg_expr(o, gr, c->arg[known]);
        fprintf(o, ";\n        for (int d_ = 0; d_ < %d; d_++) sp_[d_] = o_->shape[d_];\n", k->ak_space_rank);
    } else if (n) {
        fprintf(o, "        const tilec_array *in_[%d] = {", n);
        for (int a = 0, m = 0; a < k->nparams; a++) {
            if (!space_input(c, a)) continue;
            fputs(m++ ? ", " : "", o);
            arg_expr(o, gr, c->arg[a]);
        }
        fprintf(o, "};\n        static const char *const nm_[%d] = {", n);
        for (int a = 0, m = 0; a < k->nparams; a++) {
            if (!space_input(c, a)) continue;
            fprintf(o, "%s\"%s\"", m++ ? ", " : "", c->arg[a]);
        }
        fprintf(o, "};\n        if ((st_ = tilec_broadcast_shape(%d, in_, nm_, %d, sp_)) != TILEC_OK) return st_;\n", n,
                k->ak_space_rank);
    }
    for (int t = 0; t < gr->ntemps; t++) {
        const GraphTemp *gt = &gr->temps[t];
        if (gt->writer != ci) continue;
        const Param *p = &k->params[gt->writer_param];
        fprintf(o, "        t_[%d].dtype = %s;\n        t_[%d].ndim = %d;\n", t, emit_dtype_enum(gt->type.dtype), t,
                gt->rank);
        for (int d = 0, m = 0; d < k->ak_space_rank; d++) {
            if (rows && d == k->ak_axis && p->ak_keep == AK_KEEP_REDUCED) continue;
            if (rows && d == k->ak_axis && p->ak_keep == AK_KEEP_DIMS) fprintf(o, "        t_[%d].shape[%d] = 1;\n", t, m++);
            else fprintf(o, "        t_[%d].shape[%d] = sp_[%d];\n", t, m++, d);
        }
        /* contiguous, row-major */
        fputs("        {\n            int64_t s_ = 1;\n", o);
        fprintf(o, "            for (int d_ = %d - 1; d_ >= 0; d_--) {\n", gt->rank);
        fprintf(o, "                t_[%d].strides[d_] = s_;\n                s_ *= t_[%d].shape[d_];\n            }\n        }\n",
                t, t);
    }
    fputs("    }\n", o);
}

/* static tilec_status NAME_temps_(arrays, tilec_array t_[]): every temporary's shape */
static void emit_temps_fn(FILE *o, const CodegenOptions *co, const Func *g)
{
    const Graph *gr = g->graph;
    fputs("static tilec_status ", o);
    emit_launcher_name(o, co, g);
    fputs("_temps_(tilec_array *t_", o);
    array_params(o, g, false);
    fputs(")\n{\n    tilec_status st_ = TILEC_OK;\n", o);
    for (int i = 0; i < g->nparams; i++) {
        const Param *p = &g->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        fprintf(o, "    if ((st_ = tilec_check_array(%s, \"%s\", %d, %s)) != TILEC_OK) return st_;\n", p->name, p->name,
                p->rank, emit_dtype_enum(p->type.dtype));
    }
    fprintf(o, "    for (int i_ = 0; i_ < %d; i_++) {\n        const tilec_array z_ = {0};\n        t_[i_] = z_;\n    }\n",
            gr->ntemps ? gr->ntemps : 1);
    for (int ci = 0; ci < gr->ncalls; ci++) temp_shapes(o, g, ci);
    fputs("    return st_;\n}\n\n", o);
}

/* The workspace: each stored temporary at a 256-byte boundary. */
static void emit_layout(FILE *o, const Graph *gr)
{
    fputs("    size_t need_ = 0;\n", o);
    for (int t = 0; t < gr->ntemps; t++) {
        if (!gr->temps[t].stored) continue;
        fprintf(o, "    const size_t off%d_ = need_;\n    (void)off%d_;\n", t, t);
        fprintf(o, "    need_ += ((size_t)tilec_array_numel(&t_[%d]) * (size_t)tilec_dtype_size(t_[%d].dtype) + 255) & ~(size_t)255;\n",
                t, t);
    }
}

/* The temporaries' shapes (NAME_temps_), then the workspace's layout (need_, offK_). */
static void emit_temps_and_layout(FILE *o, const CodegenOptions *co, const Func *g)
{
    fputs("    if ((st_ = ", o);
    emit_launcher_name(o, co, g);
    fputs("_temps_(t_", o);
    array_args(o, g);
    fputs(")) != TILEC_OK) return st_;\n", o);
    emit_layout(o, g->graph);
}

void emit_graph_launchers(FILE *o, const CodegenOptions *co, const Program *p, bool cuda)
{
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *g = p->funcs[i];
        if (!g->is_graph || !g->graph) continue;
        const Graph *gr = g->graph;
        fprintf(o, "/* graph '%s' (%s:%d): %d call%s in %d kernel%s */\n", g->name, emit_base_name(co->source_name),
                g->loc.line, gr->ncalls, gr->ncalls == 1 ? "" : "s", gr->nparts, gr->nparts == 1 ? "" : "s");
        fprintf(o, "#define TILEC_TEMPS_ %d\n", gr->ntemps ? gr->ntemps : 1);
        emit_temps_fn(o, co, g);
        /* the workspace size */
        fputs(cuda ? "extern \"C\" " : "", o);
        emit_graph_prototype(o, co, g, true);
        fputs("\n{\n    tilec_status st_;\n    tilec_array t_[TILEC_TEMPS_];\n    tilec_clear_error();\n", o);
        fputs("    if (!bytes) return tilec_fail(TILEC_ERR_INVALID, \"bytes is NULL\");\n    *bytes = 0;\n", o);
        emit_temps_and_layout(o, co, g);
        fputs("    *bytes = need_;\n    return TILEC_OK;\n}\n\n", o);
        /* the launcher */
        fputs(cuda ? "extern \"C\" " : "", o);
        emit_graph_prototype(o, co, g, false);
        fputs("\n{\n    tilec_status st_;\n    tilec_array t_[TILEC_TEMPS_];\n    tilec_clear_error();\n", o);
        emit_temps_and_layout(o, co, g);
        fputs("    if (need_ > workspace_bytes || (need_ && !workspace))\n", o);
        fprintf(o, "        return tilec_fail(TILEC_ERR_WORKSPACE, \"graph '%s' needs %%zu bytes of workspace for these "
                   "arrays, given %%zu%%s\", need_, workspace_bytes, workspace ? \"\" : \" (NULL)\");\n",
                g->name);
        for (int t = 0; t < gr->ntemps; t++)
            if (gr->temps[t].stored) fprintf(o, "    t_[%d].data = (char *)workspace + off%d_;\n", t, t);
        fputs("    (void)need_;\n", o);
        for (int k = 0; k < gr->nparts; k++) {
            const Func *pk = gr->parts[k].kernel;
            fputs("    if ((st_ = ", o);
            emit_launcher_name(o, co, pk);
            fputs("(stream", o);
            for (int a = 0; a < pk->nparams; a++) {
                const Param *pp = &pk->params[a];
                if (pp->tunable) continue;
                fputs(", ", o);
                if (pp->kind == PARAM_ARRAY) arg_expr(o, gr, pp->name);
                else fputs(pp->name, o);
            }
            fputs(")) != TILEC_OK) return st_;\n", o);
        }
        fputs("    return TILEC_OK;\n}\n#undef TILEC_TEMPS_\n\n", o);
    }
}

void emit_graph_header(FILE *o, const CodegenOptions *co, const Program *p)
{
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *g = p->funcs[i];
        if (!g->is_graph || !g->graph) continue;
        const Graph *gr = g->graph;
        fputs("/*\n", o);
        if (g->doc) {
            emit_doc_lines(o, g->doc);
            fputs(" *\n", o);
        }
        fprintf(o, " * Runs graph '%s' (%s:%d) on `stream`: its %d call%s of array kernels as %d kernel%s.\n",
                g->name, emit_base_name(co->source_name), g->loc.line, gr->ncalls, gr->ncalls == 1 ? "" : "s",
                gr->nparts, gr->nparts == 1 ? "" : "s");
        int ns = 0;
        for (int t = 0; t < gr->ntemps; t++) ns += gr->temps[t].stored;
        if (ns) {
            fputs(" * `workspace` (device memory on the CUDA target) holds the temporaries", o);
            for (int t = 0, k = 0; t < gr->ntemps; t++)
                if (gr->temps[t].stored) fprintf(o, "%s %s", k++ ? "," : "", gr->temps[t].name);
            fputs(";\n * its size in bytes for given arrays is what ", o);
            emit_launcher_name(o, co, g);
            fputs("_workspace_size() says\n * (the temporaries' bytes, each rounded up to 256).\n", o);
        } else {
            fputs(" * Every temporary stays in registers: the workspace may be NULL and 0 bytes.\n", o);
        }
        for (int j = 0; j < g->nparams; j++) {
            const Param *pa = &g->params[j];
            if (pa->kind == PARAM_ARRAY)
                fprintf(o, " *   %s: %s%s array of rank %d%s\n", pa->name, pa->readonly ? "read-only " : "",
                        dtype_name(pa->type.dtype), pa->rank, pa->readonly ? "" : " (written)");
            else
                fprintf(o, " *   %s: %s scalar\n", pa->name, dtype_name(pa->type.dtype));
        }
        fputs(" * Returns TILEC_OK, or the first failing kernel's status (tilec_last_error() has the\n"
              " * detail); TILEC_ERR_WORKSPACE when the workspace is too small. */\n", o);
        emit_graph_prototype(o, co, g, false);
        fputs(";\n", o);
        emit_graph_prototype(o, co, g, true);
        fputs(";\n\n", o);
    }
}
