/* host.c: writes the host backend's FILE.c (--target=host): the same kernels
 * and launch API in C17.  Each block is a call of a static function that
 * holds whole tiles in local arrays; the launcher runs the grid block by
 * block, in parallel with OpenMP when the C compiler enables it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/diag.h"

static void host_params(FILE *o, const Func *f)
{
    fputs("int bx_, int by_, int bz_, int gx_, int gy_, int gz_", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_CONST) continue;
        if (p->kind == PARAM_ARRAY) fprintf(o, ", const tilec_array p_%s", p->name);
        else fprintf(o, ", const %s p_%s", emit_scalar_api_type(p->type.dtype), p->name);
    }
}

static void host_args(FILE *o, const Func *f)
{
    fputs("(int)x_, (int)y_, (int)z_, (int)grid.x, (int)grid.y, (int)grid.z", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_CONST) continue;
        if (p->kind == PARAM_ARRAY) {
            fprintf(o, ", *%s", p->name);
        } else {
            fputs(", ", o);
            emit_scalar_arg(o, p);
        }
    }
}

bool codegen_host(Program *p, const CodegenOptions *co, FILE *o)
{
    emit_banner(o, co, "Host C");
    fprintf(o, "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include \"tilec_rt.h\"\n"
               "#include \"tilec_ops.h\"\n#include \"%s\"\n\n",
            co->header_name);
    fputs("#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n"
          "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n#pragma GCC diagnostic ignored \"-Wunused-label\"\n#endif\n\n",
          o);
    if (!co->tune_explicit) emit_tune_helpers(o, co, p, false);
    emit_extern_decls(o, p, false);
    dbg_emit_assert_support(o, co, p, false);
    bool ok = true;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel) continue;
        int nconst = ast_nconst(f);
        int nspec = f->nspecs;
        char *grids[256];
        for (int sp = 0; sp < nspec; sp++) {
            Func *k = f->specs[sp].typed;
            grids[sp] = NULL;
            if (emit_has_tunable(f) && !grid_c_initializer(k, &grids[sp])) return false;
            fprintf(o, "static void tilec_k_%s_%d(", f->name, sp);
            host_params(o, f);
            fputs(")\n{\n", o);
            KernelPlan plan;
            if (!emit_kernel_body(o, p, k, false, co, &plan)) ok = false;
            fputs("}\n\n", o);
        }
        emit_launch_prototype(o, co, f);
        fputs("\n{\n", o);
        emit_launch_checks(o, co, f, grids);
        for (int s = 0; s < nspec; s++) free(grids[s]);
        fputs("    (void)stream;\n", o);
        fputs("    void (*k_)(", o);
        host_params(o, f);
        fputs(") = 0;\n", o);
        for (int s = 0; s < nspec; s++) {
            if (nconst) fprintf(o, "    %sif (spec_ == %d) k_ = tilec_k_%s_%d;\n", s ? "else " : "", s, f->name, s);
            else fprintf(o, "    k_ = tilec_k_%s_%d;\n", f->name, s);
        }
        fputs("    const int64_t nblocks_ = (int64_t)grid.x * grid.y * grid.z;\n", o);
        fputs("#if defined(_OPENMP)\n#pragma omp parallel for schedule(static)\n#endif\n", o);
        fputs("    for (int64_t b_ = 0; b_ < nblocks_; ++b_) {\n", o);
        fputs("        const int64_t x_ = b_ % grid.x, y_ = (b_ / grid.x) % grid.y, z_ = b_ / ((int64_t)grid.x * grid.y);\n", o);
        fputs("        k_(", o);
        host_args(o, f);
        fputs(dbg_has_assert(p, f) ? ");\n    }\n    return tilec_assert_check_();\n}\n\n" : ");\n    }\n    return TILEC_OK;\n}\n\n", o);
    }
    emit_graph_launchers(o, co, p, false);
    simt_emit_host(o, co, p);
    return ok;
}
