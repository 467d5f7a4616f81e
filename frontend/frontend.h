/* frontend.h: parse a Tile C source with libclang and lower its annotated
 * kernels and tile functions into the tilec AST (frontend/ast.h). */
#ifndef TILEC_FRONTEND_H
#define TILEC_FRONTEND_H
#include "frontend/ast.h"

typedef struct FrontendOptions {
    const char *tilec_include_dir; /* where tilec.h lives */
    const char **include_dirs;     /* -I */
    int ninclude_dirs;
    const char **macros;           /* -D NAME[=VAL] and -U NAME, in order */
    const char *macro_kinds;       /* 'D' or 'U' for each */
    int nmacros;
    const char **system_dirs;      /* -isystem */
    int nsystem_dirs;
    const char **clang_flags;      /* -W options for libclang ("-Wall", "-Wno-foo"), in order */
    int nclang_flags;
    bool verbose;                  /* -v: print libclang's arguments and search list */
} FrontendOptions;

/* Parses path and lowers it.  Returns NULL when the source has errors (they
 * have been reported through diag) or cannot be read. */
Program *frontend_parse(const char *path, const FrontendOptions *opts);
#endif
