/* builtins.c: the rows of builtins.def as data, and lookup by name (the
 * frontend's only string dispatch on builtins). */
#include <string.h>

#include "frontend/builtins.h"

/* tilec.h's option structs hold more (tile_load's also has the atomics'
 * fields), so the lists here are what is checked, and what messages name. */
static const char *const BOPTS_NONE[] = {NULL};
static const char *const BOPTS_MEM[] = {"index", "shape", "order", "padding", "latency", NULL};
static const char *const BOPTS_SHAPE[] = {"shape", NULL};
static const char *const BOPTS_CAST[] = {"rounding", "saturate", NULL};
static const char *const BOPTS_MATH[] = {"rounding", "approx", "ftz", NULL};
static const char *const BOPTS_REDUCE[] = {"axis", "keepdims", NULL};
static const char *const BOPTS_AXIS[] = {"axis", NULL};
static const char *const BOPTS_GATHER[] = {"index", "padding", NULL};
static const char *const BOPTS_SCATTER[] = {"index", NULL};
static const char *const BOPTS_ATOMIC[] = {"index", "memory_order", "scope", NULL};
static const char *const BOPTS_EXTRACT[] = {"index", "shape", NULL};
static const char *const BOPTS_SCAN[] = {"axis", "exclusive", "reverse", NULL};
static const char *const BOPTS_VIEW_PERMUTE[] = {"axes", NULL};
static const char *const BOPTS_VIEW_PAD[] = {"low", "high", "padding", NULL};
static const char *const BOPTS_VIEW_WINDOW[] = {"window_axes", "size", "stride", "dilation", "low", "high", "padding", NULL};
static const char *const BOPTS_VIEW_IM2COL[] = {"size", "stride", "dilation", "low", "high", "padding", "channels_last", NULL};
static const char *const BOPTS_VIEW_LAYOUT[] = {"offset", "padding", NULL};

static const BuiltinInfo rows[BI_COUNT] = {
    [BI_NONE] = {"?", BCLASS_QUERY, BOPTS_NONE, -1, false},
#define BUILTIN(id, nm, c, o, targ, m) [BI_##id] = {nm, c, o, targ, m},
#include "frontend/builtins.def"
#undef BUILTIN
};

Builtin builtin_lookup(const char *name)
{
    if (!strncmp(name, "tile_", 5)) name += 5;
    for (int b = 1; b < BI_COUNT; b++)
        if (!strcmp(rows[b].name, name)) return (Builtin)b;
    return BI_NONE;
}

const BuiltinInfo *builtin_info(Builtin b)
{
    return &rows[b > BI_NONE && b < BI_COUNT ? b : BI_NONE];
}
