/* codegen.h: the emitters.  Each takes a parsed Program, runs sema for every
 * kernel specialization, and writes one output file: CUDA C++ (.cu), host
 * C17 (.c) or the C header (.h) that both define the launch API of. */
#ifndef TILEC_CODEGEN_H
#define TILEC_CODEGEN_H
#include <stdbool.h>
#include <stdio.h>

#include "frontend/ast.h"

/* One entry of a tuning table (--tuning FILE, cmd/tuning.c): for kernel
 * `kernel` on devices of compute capability cc (0: the host target), the
 * problem whose array extents (every array parameter in order, every
 * dimension) fall in buckets key (ceil(log2(extent)), 0 for 0 and 1) runs
 * with its TILE_TUNABLE constants (in order) set to val.  A default entry
 * (is_default) has no cc and no key: the values when no entry matches. */
#define TUNE_MAX_KEY 64
/* The bucket of an extent: ceil(log2(n)), 0 for 0 and 1 (the generated
 * launchers' tilec_bucket_ computes the same at run time). */
int codegen_tune_bucket(int64_t n);
typedef struct TuneEntry {
    const char *kernel;
    bool is_default;
    int cc;
    int nkey;
    int key[TUNE_MAX_KEY];
    int nval;
    int64_t val[16];
    const char *file; /* where the line was read (for -Wtuning-bucket) */
    int line;
} TuneEntry;

typedef struct CodegenOptions {
    const char *source_name;  /* the input path as #line and comments show it */
    const char *header_name;  /* how the .cu/.c includes the header ("foo.h") */
    int arch;                 /* --arch=sm_XX as XX (of a list, the highest); 0 = not given */
    const int *archs;         /* --arch=sm_80,sm_90: every one listed (codegen_has_arch) */
    int narchs;               /* 0: arch alone */
    int opt_level;            /* 0 or 2 */
    bool line_directives;     /* emit #line mapping to the .tile.c */
    int max_threads;          /* --max-threads: CUDA threads per block at most (0: 256) */
    int min_blocks;           /* --min-blocks: blocks per multiprocessor asked of nvcc (0: none) */
    bool sm90_clusters;       /* --sm90-clusters: Hopper variants in clusters of two with TMA multicast */
    const char *symbol_prefix; /* --symbol-prefix: before every launcher's name (NULL: none) */
    const char *const *rename_old, *const *rename_new; /* --rename=OLD=NEW: launcher of kernel OLD is NEW */
    int nrename;
    const TuneEntry *tuning;  /* --tuning: the entries of every file given */
    bool tune_explicit;       /* tilec tune: launchers take the tunables as arguments */
    int ntuning;
} CodegenOptions;

/* Whether the code is built for sm_XX = sm among others (--arch's list). */
static inline bool codegen_has_arch(const CodegenOptions *co, int sm)
{
    if (co->narchs == 0) return co->arch == sm;
    for (int i = 0; i < co->narchs; i++)
        if (co->archs[i] == sm) return true;
    return false;
}

/* Whether every operation of the typed kernel that needs a newer GPU than
 * some architecture of --arch's list is under a tile_target branch that
 * excludes that architecture; errors otherwise (arch_check.c). */
bool codegen_check_archs(const Func *typed, const CodegenOptions *co);
/* Whether some kernel of p has an `if (tile_target(...))`. */
bool codegen_has_target_if(const Program *p);

/* Every kernel with TILE_TUNABLE constants has a grid the launcher can work
 * out from its arrays (grid.c); errors at the first tunable otherwise. */
bool codegen_check_tunable(Program *p);
/* tilec tune: the tuning program (tune.c) for the shapes file `shapes`. */
bool codegen_tune(Program *p, const CodegenOptions *o, bool cuda, const char *shapes, FILE *out);
bool codegen_cuda(Program *p, const CodegenOptions *o, FILE *out);
/* `--emit=tir`: the tile IR of every kernel specialization, after placement
 * and lowering (codegen/tir.h), as text. */
bool codegen_tir(Program *p, const CodegenOptions *o, bool cuda, FILE *out);
bool codegen_host(Program *p, const CodegenOptions *o, FILE *out);
bool codegen_header(Program *p, const CodegenOptions *o, FILE *out);
/* The Python module (python.c) for the launchers of the cuda or the host
 * target; module is its name (the stem of its file), which also names the
 * shared library it loads by default (lib<module>.so). */
bool codegen_python(Program *p, const CodegenOptions *o, bool cuda, const char *module, FILE *out);
#endif
