/* graph.h: kernel graphs (TILE_GRAPH) after sema/graph.c planned them: the
 * temporaries, the calls, and the fused parts the launcher runs in order
 * (codegen/graph.c). */
#ifndef TILEC_GRAPH_H
#define TILEC_GRAPH_H
#include <stdbool.h>
#include <stdio.h>

#include "frontend/ast.h"

typedef struct GraphTemp {
    const char *name;
    SrcLoc loc;
    TypeRef type;       /* element type (dtype) */
    int rank;
    int writer;         /* the call that first writes it (its shape comes from there) */
    int writer_param;   /* ...as that callee's parameter */
    bool stored;        /* kept in the workspace: a later part reads it */
} GraphTemp;

typedef struct GraphCall {
    Func *callee;       /* the array kernel (lowered; its roles give shapes) */
    SrcLoc loc;
    const char **arg;   /* per callee parameter: the graph array or temporary passed, or NULL (a scalar) */
    int part;           /* the fused part it runs in */
} GraphCall;

typedef struct GraphPart {
    Func *kernel;       /* the array kernel tilec made of the part's calls */
    int first, last;    /* its calls */
} GraphPart;

typedef struct Graph {
    GraphTemp *temps;
    int ntemps;
    GraphCall *calls;
    int ncalls;
    GraphPart *parts;
    int nparts;
} Graph;

/* Plans every TILE_GRAPH of p: checks its calls, fuses them into parts
 * (new array kernels appended to p, lowered with the others), and with
 * remarks set prints which calls fused and why the others did not.
 * Runs before sem_array_kernels, which lowers the parts too.  False after
 * an error. */
bool sem_graphs(Program *p, bool remarks);
/* The index of temporary name in g, or -1. */
int graph_temp(const Graph *g, const char *name);
#endif
