/* python.c: writes FILE.py (--python / --emit=python), a Python module that
 * calls the launchers of FILE.h through ctypes: each kernel becomes a Python
 * function taking arrays (torch tensors, NumPy arrays, anything with
 * __dlpack__ or __cuda_array_interface__), scalars and TILE_CONST values, with
 * the grid worked out from the arrays where the kernel says how (below) and
 * the launch on the caller's stream.  The module needs nothing but the
 * standard library at import time; it loads the shared library built from
 * the generated code on first use.  User documentation: docs/python.md.
 * The default grid: codegen/grid.c. */
#include <inttypes.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/diag.h"
#include "sema/graph.h"

/* ---- the module ---------------------------------------------------------- */

/* The runtime side every module carries: descriptors, dtype tables, the
 * conversion of array objects, library loading.  Plain text, the same in
 * every module. */
static const char *const py_runtime[] = {
    "import ctypes as _C\n"
    "import operator as _op\n"
    "import os as _os\n"
    "import sys as _sys\n"
    "\n"
    "\n"
    "class TilecError(RuntimeError):\n"
    "    \"\"\"A launch that tilec's runtime refused, or that failed.\n"
    "\n"
    "    status: the tilec_status number; status_name: its name (\"TILEC_ERR_DTYPE\");\n"
    "    detail: tilec_last_error()'s text (\"argument 'x': rank 2, kernel expects 1\").\n"
    "    \"\"\"\n"
    "\n"
    "    def __init__(self, status, text, detail):\n"
    "        self.status = status\n"
    "        self.status_name = text.split(\":\", 1)[0]\n"
    "        self.detail = detail\n"
    "        super().__init__(text + (\" (\" + detail + \")\" if detail else \"\"))\n"
    "\n"
    "\n"
    "class _Array(_C.Structure):  # tilec_array (tilec_rt.h)\n"
    "    _fields_ = [(\"data\", _C.c_void_p), (\"dtype\", _C.c_int32), (\"ndim\", _C.c_int32),\n"
    "                (\"shape\", _C.c_int64 * 8), (\"strides\", _C.c_int64 * 8),\n"
    "                (\"flags\", _C.c_uint32), (\"reserved_\", _C.c_uint32)]\n"
    "\n"
    "\n"
    "class _Grid(_C.Structure):  # tilec_grid\n"
    "    _fields_ = [(\"x\", _C.c_uint32), (\"y\", _C.c_uint32), (\"z\", _C.c_uint32)]\n"
    "\n"
    "\n",
    "_ERR_DTYPE, _ERR_RANK, _ERR_CONSTANT, _ERR_DEVICE, _ERR_INVALID = 4, 3, 10, 11, 13\n"
    "_READONLY = 1\n"
    "# tilec dtype numbers (tilec_rt.h) by torch dtype and by array-interface type string\n"
    "_TORCH = {\"torch.bool\": 1, \"torch.int8\": 2, \"torch.int16\": 3, \"torch.int32\": 4, \"torch.int64\": 5,\n"
    "          \"torch.uint8\": 6, \"torch.uint16\": 7, \"torch.uint32\": 8, \"torch.uint64\": 9,\n"
    "          \"torch.float16\": 10, \"torch.bfloat16\": 11, \"torch.float32\": 12, \"torch.float64\": 13,\n"
    "          \"torch.float8_e4m3fn\": 15, \"torch.float8_e5m2\": 16}\n"
    "_TYPESTR = {\"b1\": 1, \"i1\": 2, \"i2\": 3, \"i4\": 4, \"i8\": 5, \"u1\": 6, \"u2\": 7, \"u4\": 8, \"u8\": 9,\n"
    "            \"f2\": 10, \"f4\": 12, \"f8\": 13}\n"
    "_SIZE = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 2, 8: 4, 9: 8, 10: 2, 11: 2, 12: 4, 13: 8, 15: 1, 16: 1}\n"
    "_TORCH_DT = {}  # torch dtype object -> tilec dtype (0: none), filled as met\n"
    "_lib = None\n"
    "\n"
    "\n"
    "def _cdiv(n, d):\n"
    "    return max(-(-n // d), 0)\n"
    "\n"
    "\n"
    "def _fail(status, detail):\n"
    "    text = _lib.tilec_status_string(status).decode() if _lib is not None else \"tilec status %d\" % status\n"
    "    raise TilecError(status, text, detail)\n"
    "\n"
    "\n"
    "def _from_interface(d, name, itf, cuda):\n"
    "    \"\"\"Fills d from an __array_interface__ / __cuda_array_interface__ dict.\"\"\"\n"
    "    ts = itf[\"typestr\"]\n"
    "    code = _TYPESTR.get(ts[1:]) if ts[0] in \"<|=\" else None\n"
    "    if code is None:\n"
    "        _fail(_ERR_DTYPE, \"argument '%s': element type %s is not a tilec dtype\" % (name, ts))\n"
    "    shape = itf[\"shape\"]\n"
    "    if len(shape) > 8:\n"
    "        _fail(_ERR_RANK, \"argument '%s': rank %d is over 8\" % (name, len(shape)))\n"
    "    ptr, readonly = itf[\"data\"]\n"
    "    size = _SIZE[code]\n"
    "    d.data, d.dtype, d.ndim, d.flags = ptr, code, len(shape), _READONLY if readonly else 0\n"
    "    strides = itf.get(\"strides\")\n"
    "    step = 1\n"
    "    for i in range(len(shape) - 1, -1, -1):\n"
    "        d.shape[i] = shape[i]\n"
    "        if strides is None:\n"
    "            d.strides[i] = step\n"
    "            step *= max(shape[i], 1)\n"
    "        elif strides[i] % size:\n"
    "            _fail(_ERR_INVALID, \"argument '%s': stride of %d bytes is not a whole number of elements\"\n"
    "                  % (name, strides[i]))\n"
    "        else:\n"
    "            d.strides[i] = strides[i] // size\n"
    "\n"
    "\n",
    "def _from_dlpack(d, name, obj, cuda, stream, keep):\n"
    "    \"\"\"Fills d from obj.__dlpack__(): a DLPack 1.x versioned capsule when the\n"
    "    producer gives one, else a legacy one (kept alive in keep until the launch\n"
    "    returned; the capsule's own destructor frees it).\"\"\"\n"
    "    kw = {\"stream\": (stream or 1) if cuda else None}\n"
    "    try:\n"
    "        cap = obj.__dlpack__(max_version=(1, 0), **kw)\n"
    "    except TypeError:\n"
    "        cap = obj.__dlpack__(**kw)\n"
    "    keep.append(cap)\n"
    "    api = _C.pythonapi\n"
    "    capname = api.PyCapsule_GetName(cap)\n"
    "    ptr = api.PyCapsule_GetPointer(cap, capname)\n"
    "    if capname == b\"dltensor_versioned\":\n"
    "        st, off = _lib.tilec_array_from_dlpack_versioned(ptr, _C.byref(d)), 32\n"
    "    elif capname == b\"dltensor\":\n"
    "        st, off = _lib.tilec_array_from_dlpack(ptr, _C.byref(d)), 0\n"
    "    else:\n"
    "        _fail(_ERR_INVALID, \"argument '%s': __dlpack__ gave a capsule named %r\" % (name, capname))\n"
    "    if st:\n"
    "        _fail(st, \"argument '%s': %s\" % (name, _lib.tilec_last_error().decode()))\n"
    "    dev = _C.c_int32.from_address(ptr + off + 8).value  # DLTensor.device.device_type\n"
    "    if (dev not in (2, 3, 13)) if cuda else (dev not in (1, 3, 13)):  # CUDA, CUDAHost, CUDAManaged / CPU\n"
    "        _fail(_ERR_DEVICE, \"argument '%s': DLPack device type %d, the kernels run on the %s\"\n"
    "              % (name, dev, \"GPU\" if cuda else \"host\"))\n"
    "\n"
    "\n"
    "def _fill(d, name, obj, cuda, stream, keep):\n"
    "    \"\"\"Fills the descriptor d from obj without copying: torch tensors and array\n"
    "    interfaces directly, anything else through DLPack.\"\"\"\n"
    "    mod = type(obj).__module__\n"
    "    if mod.startswith(\"torch\") and hasattr(obj, \"data_ptr\"):\n"
    "        if obj.is_cuda != cuda:\n"
    "            _fail(_ERR_DEVICE, \"argument '%s': a torch tensor on %s, the kernels run on the %s\"\n"
    "                  % (name, obj.device, \"GPU\" if cuda else \"host\"))\n"
    "        dt = obj.dtype\n"
    "        code = _TORCH_DT.get(dt)  # keyed by the dtype object: no str() per call\n"
    "        if code is None:\n"
    "            code = _TORCH_DT[dt] = _TORCH.get(str(dt), 0)\n"
    "        if not code:\n"
    "            _fail(_ERR_DTYPE, \"argument '%s': %s is not a tilec dtype\" % (name, dt))\n"
    "        shape, strides = obj.shape, obj.stride()\n"
    "        n = len(shape)\n"
    "        if n > 8:\n"
    "            _fail(_ERR_RANK, \"argument '%s': rank %d is over 8\" % (name, n))\n"
    "        d.data, d.dtype, d.ndim = obj.data_ptr(), code, n\n"
    "        d.shape[:n], d.strides[:n] = shape, strides\n"
    "        return\n"
    "    itf = getattr(obj, \"__cuda_array_interface__\", None) if cuda else None\n"
    "    if itf is not None:\n"
    "        return _from_interface(d, name, itf, cuda)\n"
    "    itf = getattr(obj, \"__array_interface__\", None)\n"
    "    if itf is not None and isinstance(itf.get(\"data\"), tuple):\n"
    "        if cuda:\n"
    "            _fail(_ERR_DEVICE, \"argument '%s': host memory (%s), the kernels run on the GPU\"\n"
    "                  % (name, type(obj).__name__))\n"
    "        if _TYPESTR.get(itf[\"typestr\"][1:]) is not None:\n"
    "            return _from_interface(d, name, itf, cuda)\n"
    "    if hasattr(obj, \"__dlpack__\"):\n"
    "        return _from_dlpack(d, name, obj, cuda, stream, keep)\n"
    "    if not cuda and hasattr(obj, \"__cuda_array_interface__\"):\n"
    "        _fail(_ERR_DEVICE, \"argument '%s': GPU memory (%s), the kernels run on the host\"\n"
    "              % (name, type(obj).__name__))\n"
    "    raise TypeError(\"argument '%s': %s is not an array (no __dlpack__, __cuda_array_interface__\"\n"
    "                    \" or __array_interface__)\" % (name, type(obj).__name__))\n"
    "\n"
    "\n",
    "def _stream_of(args, stream, cuda):\n"
    "    \"\"\"The stream to launch on: stream= (an int, or an object with .cuda_stream\n"
    "    or .ptr), else torch's current stream when an argument is a CUDA torch\n"
    "    tensor, else the stream a __cuda_array_interface__ names, else 0 (the\n"
    "    default stream).\"\"\"\n"
    "    if not cuda:\n"
    "        return 0\n"
    "    if stream is not None:\n"
    "        return int(getattr(stream, \"cuda_stream\", getattr(stream, \"ptr\", stream)))\n"
    "    for a in args:\n"
    "        if type(a).__module__.startswith(\"torch\") and getattr(a, \"is_cuda\", False):\n"
    "            tc = _sys.modules[\"torch\"]._C\n"
    "            if hasattr(tc, \"_cuda_getCurrentRawStream\"):  # what torch's own launchers read\n"
    "                return tc._cuda_getCurrentRawStream(a.device.index)\n"
    "            return _sys.modules[\"torch\"].cuda.current_stream(a.device).cuda_stream\n"
    "    for a in args:\n"
    "        s = (getattr(a, \"__cuda_array_interface__\", None) or {}).get(\"stream\")\n"
    "        if s:\n"
    "            return 0 if s in (1, 2) else s\n"
    "    return 0\n"
    "\n"
    "\n"
    "def _grid_of(grid, auto, kernel):\n"
    "    if grid is None:\n"
    "        if auto is None:\n"
    "            raise TypeError(\"%s() needs grid=: tilec cannot tell its grid from the arrays\" % kernel)\n"
    "        grid = auto\n"
    "    elif not isinstance(grid, (tuple, list)):\n"
    "        grid = (_op.index(grid),)  # an int, or any integer (numpy.int64)\n"
    "    g = tuple(_op.index(x) for x in grid) + (1,) * (3 - len(grid))\n"
    "    if not 1 <= len(grid) <= 3 or min(g) < 0 or max(g) > 0xFFFFFFFF:\n"
    "        raise ValueError(\"%s(): grid %r is not 1 to 3 block counts\" % (kernel, grid))\n"
    "    return _Grid(*g)\n"
    "\n"
    "\n",
    NULL};

static const char *py_scalar_ctype(Dtype d)
{
    switch (d) {
    case DT_BOOL: return "_C.c_bool";
    case DT_INT8: return "_C.c_int8";
    case DT_INT16: return "_C.c_int16";
    case DT_INT32: return "_C.c_int32";
    case DT_INT64: return "_C.c_int64";
    case DT_UINT8: return "_C.c_uint8";
    case DT_UINT16: return "_C.c_uint16";
    case DT_UINT32: return "_C.c_uint32";
    case DT_UINT64: return "_C.c_uint64";
    case DT_FLOAT64: return "_C.c_double";
    default: return "_C.c_float"; /* float32 and the narrow floats, passed as float */
    }
}

/* A Python string literal of s (the doc comments). */
static void py_docline(FILE *o, const char *indent, const char *s)
{
    for (const char *c = s; *c;) {
        fputs(indent, o);
        for (; *c && *c != '\n'; c++) {
            if (*c == '\\' || (*c == '"' && c[1] == '"')) fputc('\\', o);
            fputc(*c, o);
        }
        fputc('\n', o);
        if (*c) c++;
    }
}

/* The stream (s_: the arrays' on CUDA) and a descriptor d_NAME of every
 * array parameter of f. */
static void py_descriptors(FILE *o, const Func *f, bool cuda)
{
    bool any_array = false;
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].kind == PARAM_ARRAY) any_array = true;
    if (cuda && any_array) {
        fputs("    s_ = _stream_of((", o);
        for (int i = 0; i < f->nparams; i++)
            if (f->params[i].kind == PARAM_ARRAY) fprintf(o, "%s, ", f->params[i].name);
        fputs("), stream, True)\n", o);
    } else {
        fprintf(o, "    s_ = _stream_of((), stream, %s)\n", cuda ? "True" : "False");
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *pa = &f->params[i];
        if (pa->kind != PARAM_ARRAY) continue;
        fprintf(o, "    d_%s = _Array()\n    _fill(d_%s, \"%s\", %s, %s, s_, keep)\n", pa->name, pa->name, pa->name,
                pa->name, cuda ? "True" : "False");
        /* tf32 has no dtype of its own in torch or NumPy: their float32
         * arrays are read as tf32 (the kernel uses 10 of the mantissa bits) */
        if (pa->type.dtype == DT_TFLOAT32)
            fprintf(o, "    if d_%s.dtype == 12:  # float32, read as tf32\n        d_%s.dtype = 14\n", pa->name, pa->name);
    }
}

static void py_kernel(FILE *o, const Func *f, const CodegenOptions *co, bool cuda)
{
    /* signature: the kernel's parameters in order, then grid= and stream= */
    /* A kernel with TILE_TUNABLE constants takes neither them nor a grid:
     * its launcher picks both. */
    bool tuned = emit_has_tunable(f);
    fprintf(o, "def %s(", f->name);
    for (int i = 0; i < f->nparams; i++)
        if (!f->params[i].tunable) fprintf(o, "%s, ", f->params[i].name);
    fputs(tuned ? "*, stream=None):\n    \"\"\"" : "*, grid=None, stream=None):\n    \"\"\"", o);
    if (f->doc) {
        fputc('\n', o);
        py_docline(o, "    ", f->doc);
        fputc('\n', o);
    } else {
        fputc('\n', o);
    }
    fprintf(o, "    Tile kernel '%s' (%s:%d), launched on the %s.\n\n", f->name, emit_base_name(co->source_name),
            f->loc.line, cuda ? "GPU" : "host");
    for (int i = 0; i < f->nparams; i++) {
        const Param *pa = &f->params[i];
        switch (pa->kind) {
        case PARAM_ARRAY:
            fprintf(o, "    %s: %s%s array of rank %d%s\n", pa->name, pa->readonly ? "read-only " : "",
                    dtype_name(pa->type.dtype), pa->rank, pa->readonly ? "" : " (written)");
            break;
        case PARAM_SCALAR: fprintf(o, "    %s: %s scalar\n", pa->name, dtype_name(pa->type.dtype)); break;
        case PARAM_CONST:
            if (pa->tunable) {
                fprintf(o, "    (%s: tuned constant, chosen by the launcher among", pa->name);
                for (int k = 0; k < pa->nspecs; k++) fprintf(o, "%s %" PRId64, k ? "," : "", pa->specs[k]);
                fputs(")\n", o);
                break;
            }
            fprintf(o, "    %s: compile-time constant, one of", pa->name);
            for (int k = 0; k < pa->nspecs; k++) fprintf(o, "%s %" PRId64, k ? "," : "", pa->specs[k]);
            fputc('\n', o);
            break;
        }
    }
    if (!tuned) fputs("    grid: blocks per axis (an int or a tuple of up to 3); default: worked out from the arrays\n", o);
    fputs("    stream: where to launch (default: the arrays' current stream)\n", o);
    fputs("    Raises TilecError when the runtime refuses the launch or it fails.\n    \"\"\"\n", o);

    /* descriptors */
    fputs("    if _lib is None:\n        load()\n    keep = []\n", o);
    py_descriptors(o, f, cuda);

    /* Integer scalars: ctypes would wrap a value out of the C type's range
     * silently. */
    for (int i = 0; i < f->nparams; i++) {
        const Param *pa = &f->params[i];
        if (pa->kind != PARAM_SCALAR || !dtype_is_int(pa->type.dtype)) continue;
        int bits = dtype_bits(pa->type.dtype);
        if (dtype_is_signed(pa->type.dtype))
            fprintf(o, "    if not -(1 << %d) <= %s < 1 << %d:\n", bits - 1, pa->name, bits - 1);
        else
            fprintf(o, "    if not 0 <= %s < 1 << %d:\n", pa->name, bits);
        fprintf(o, "        _fail(_ERR_INVALID, \"argument '%s': %%r does not fit %s\" %% (%s,))\n", pa->name,
                dtype_name(pa->type.dtype), pa->name);
    }

    if (tuned) {
        fputs("    st = _lib.", o);
        emit_launcher_name(o, co, f);
        fputs("(s_", o);
        for (int i = 0; i < f->nparams; i++) {
            const Param *pa = &f->params[i];
            if (pa->kind == PARAM_ARRAY) fprintf(o, ", _C.byref(d_%s)", pa->name);
            else if (!pa->tunable) fprintf(o, ", %s", pa->name);
        }
        fputs(")\n    if st:\n        _fail(st, _lib.tilec_last_error().decode())\n\n\n", o);
        return;
    }

    /* the default grid, per specialization */
    int nconst = ast_nconst(f);
    /* With constants, their values are checked here whatever the grid:
     * ctypes wraps an integer silently into the parameter's C type, so a
     * value out of its range could reach the launcher as a compiled one. */
    if (!nconst) fputs("    if grid is None:\n", o);
    bool firstspec = true;
    for (int sp = 0; sp < f->nspecs; sp++) {
        const int64_t *vals = f->specs[sp].vals;
        if (nconst) {
            fprintf(o, "    %sif (", firstspec ? "" : "el");
            for (int j = 0; j < f->nparams; j++)
                if (f->params[j].kind == PARAM_CONST) fprintf(o, "%s, ", f->params[j].name);
            fputs(") == (", o);
            for (int c = 0; c < nconst; c++) fprintf(o, "%" PRId64 ", ", vals[c]);
            fputs("):\n", o);
        }
        fputs("        auto = ", o);
        grid_emit(o, f->specs[sp].typed, true);
        fputc('\n', o);
        firstspec = false;
    }
    if (nconst) {
        fprintf(o, "    %s:\n        _fail(_ERR_CONSTANT, \"%s: no compiled specialization for (", firstspec ? "if True" : "else",
                f->name);
        for (int j = 0, k = 0; j < f->nparams; j++)
            if (f->params[j].kind == PARAM_CONST) fprintf(o, "%s%s", k++ ? ", " : "", f->params[j].name);
        fputs(") = %r\" % ((", o);
        for (int j = 0; j < f->nparams; j++)
            if (f->params[j].kind == PARAM_CONST) fprintf(o, "%s, ", f->params[j].name);
        fputs("),))\n", o);
    } else {
        fputs("    else:\n        auto = None\n", o);
    }
    fprintf(o, "    g_ = _grid_of(grid, auto, \"%s\")\n", f->name);
    fputs("    st = _lib.", o);
    emit_launcher_name(o, co, f);
    fputs("(s_, g_", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *pa = &f->params[i];
        if (pa->kind == PARAM_ARRAY) fprintf(o, ", _C.byref(d_%s)", pa->name);
        else fprintf(o, ", %s", pa->name);
    }
    fputs(")\n    if st:\n        _fail(st, _lib.tilec_last_error().decode())\n\n\n", o);
}

/* A kernel graph: name(arrays..., scalars..., *, workspace=None, stream=None)
 * and name_workspace_size(arrays...) -> bytes.  The workspace is any array
 * object (a uint8 tensor of that many bytes, on the target's side). */
static void py_graph(FILE *o, const Func *g, const CodegenOptions *co, bool cuda)
{
    fprintf(o, "def %s_workspace_size(", g->name);
    for (int i = 0; i < g->nparams; i++)
        if (g->params[i].kind == PARAM_ARRAY) fprintf(o, "%s, ", g->params[i].name);
    fprintf(o, "*, stream=None):\n    \"\"\"The bytes of workspace graph '%s' needs for these arrays.\"\"\"\n",
            g->name);
    fputs("    if _lib is None:\n        load()\n    keep = []\n", o);
    py_descriptors(o, g, cuda);
    fputs("    n_ = _C.c_size_t(0)\n    st = _lib.", o);
    emit_launcher_name(o, co, g);
    fputs("_workspace_size(_C.byref(n_)", o);
    for (int i = 0; i < g->nparams; i++)
        if (g->params[i].kind == PARAM_ARRAY) fprintf(o, ", _C.byref(d_%s)", g->params[i].name);
    fputs(")\n    if st:\n        _fail(st, _lib.tilec_last_error().decode())\n    return n_.value\n\n\n", o);

    fprintf(o, "def %s(", g->name);
    for (int i = 0; i < g->nparams; i++) fprintf(o, "%s, ", g->params[i].name);
    fputs("*, workspace=None, stream=None):\n    \"\"\"", o);
    if (g->doc) {
        fputc('\n', o);
        py_docline(o, "    ", g->doc);
    }
    fprintf(o, "\n    Kernel graph '%s' (%s:%d): %d calls as %d kernel%s, on the %s.\n", g->name,
            emit_base_name(co->source_name), g->loc.line, g->graph->ncalls, g->graph->nparts,
            g->graph->nparts == 1 ? "" : "s", cuda ? "GPU" : "host");
    fprintf(o, "    workspace: an array of at least %s_workspace_size(...) bytes, when that is not 0\n", g->name);
    fputs("    stream: where to launch (default: the arrays' current stream)\n", o);
    fputs("    Raises TilecError when the runtime refuses the launch or it fails.\n    \"\"\"\n", o);
    fputs("    if _lib is None:\n        load()\n    keep = []\n", o);
    py_descriptors(o, g, cuda);
    fputs("    w_, wn_ = None, 0\n    if workspace is not None:\n        d_w = _Array()\n", o);
    fprintf(o, "        _fill(d_w, \"workspace\", workspace, %s, s_, keep)\n", cuda ? "True" : "False");
    fputs("        w_ = d_w.data\n        wn_ = 1\n        for k_ in range(d_w.ndim):\n            wn_ *= d_w.shape[k_]\n"
          "        wn_ *= _lib.tilec_dtype_size(d_w.dtype)\n", o);
    fputs("    st = _lib.", o);
    emit_launcher_name(o, co, g);
    fputs("(s_, w_, wn_", o);
    for (int i = 0; i < g->nparams; i++) {
        const Param *pa = &g->params[i];
        if (pa->kind == PARAM_ARRAY) fprintf(o, ", _C.byref(d_%s)", pa->name);
        else fprintf(o, ", %s", pa->name);
    }
    fputs(")\n    if st:\n        _fail(st, _lib.tilec_last_error().decode())\n\n\n", o);
}

bool codegen_python(Program *p, const CodegenOptions *co, bool cuda, const char *module, FILE *o)
{
    fprintf(o, "# Python binding generated by tilec " TILEC_VERSION " from %s.  Do not edit: edit the source and\n"
               "# run tilec again.\n",
            co->source_name ? emit_base_name(co->source_name) : "(stdin)");
    fprintf(o, "\"\"\"The tile kernels of %s, compiled ahead of time by tilec for the %s.\n\n",
            co->source_name ? emit_base_name(co->source_name) : "(stdin)", cuda ? "GPU (CUDA)" : "host");
    fputs("Each kernel is a function taking arrays (torch tensors, NumPy arrays, anything\n"
          "with __dlpack__ or __cuda_array_interface__; never copied), scalars and the\n"
          "kernel's constants, plus grid= and stream=.  The kernels live in a shared\n"
          "library built from the generated code (docs/python.md); load(path) names it,\n", o);
    fprintf(o, "else the first call loads lib%s.so from this module's folder, or the file that\n"
               "$TILEC_%s_LIBRARY names.\n\"\"\"\n",
            module, module);
    for (const char *const *t = py_runtime; *t; t++) fputs(*t, o);
    fputs("TARGET = \"", o);
    fputs(cuda ? "cuda" : "host", o);
    fputs("\"\n__all__ = [\"TilecError\", \"load\", \"TARGET\"", o);
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->is_kernel && !p->funcs[i]->internal) fprintf(o, ", \"%s\"", p->funcs[i]->name);
        else if (p->funcs[i]->is_graph && p->funcs[i]->graph)
            fprintf(o, ", \"%s\", \"%s_workspace_size\"", p->funcs[i]->name, p->funcs[i]->name);
    fputs("]\n\n\n", o);

    /* load(): binds every launcher's argument types once */
    fputs("def load(path=None):\n"
          "    \"\"\"Loads the kernels' shared library (path, else $TILEC_", o);
    for (const char *c = module; *c; c++) fputc(*c >= 'a' && *c <= 'z' ? *c - 32 : *c, o);
    fprintf(o, "_LIBRARY, else\n    lib%s.so beside this module) and returns it.\"\"\"\n", module);
    fputs("    global _lib\n    if path is None:\n        path = _os.environ.get(\"TILEC_", o);
    for (const char *c = module; *c; c++) fputc(*c >= 'a' && *c <= 'z' ? *c - 32 : *c, o);
    fprintf(o, "_LIBRARY\") or _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), \"lib%s.so\")\n", module);
    fputs("    lib = _C.CDLL(path)\n"
          "    lib.tilec_status_string.restype = _C.c_char_p\n"
          "    lib.tilec_status_string.argtypes = [_C.c_int]\n"
          "    lib.tilec_last_error.restype = _C.c_char_p\n"
          "    lib.tilec_last_error.argtypes = []\n"
          "    for f in (lib.tilec_array_from_dlpack, lib.tilec_array_from_dlpack_versioned):\n"
          "        f.restype = _C.c_int\n"
          "        f.argtypes = [_C.c_void_p, _C.POINTER(_Array)]\n"
          "    _C.pythonapi.PyCapsule_GetName.restype = _C.c_char_p\n"
          "    _C.pythonapi.PyCapsule_GetName.argtypes = [_C.py_object]\n"
          "    _C.pythonapi.PyCapsule_GetPointer.restype = _C.c_void_p\n"
          "    _C.pythonapi.PyCapsule_GetPointer.argtypes = [_C.py_object, _C.c_char_p]\n",
          o);
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *f = p->funcs[i];
        if (!f->is_kernel || f->internal) continue;
        fputs("    fn = lib.", o);
        emit_launcher_name(o, co, f);
        fputs(emit_has_tunable(f) ? "\n    fn.restype = _C.c_int\n    fn.argtypes = [_C.c_void_p"
                                   : "\n    fn.restype = _C.c_int\n    fn.argtypes = [_C.c_void_p, _Grid", o);
        for (int j = 0; j < f->nparams; j++) {
            const Param *pa = &f->params[j];
            if (pa->tunable) continue;
            if (pa->kind == PARAM_ARRAY) fputs(", _C.POINTER(_Array)", o);
            else fprintf(o, ", %s", py_scalar_ctype(pa->type.dtype));
        }
        fputs("]\n", o);
    }
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *g = p->funcs[i];
        if (!g->is_graph || !g->graph) continue;
        fputs("    fn = lib.", o);
        emit_launcher_name(o, co, g);
        fputs("\n    fn.restype = _C.c_int\n    fn.argtypes = [_C.c_void_p, _C.c_void_p, _C.c_size_t", o);
        for (int j = 0; j < g->nparams; j++) {
            const Param *pa = &g->params[j];
            if (pa->kind == PARAM_ARRAY) fputs(", _C.POINTER(_Array)", o);
            else fprintf(o, ", %s", py_scalar_ctype(pa->type.dtype));
        }
        fputs("]\n    fn = lib.", o);
        emit_launcher_name(o, co, g);
        fputs("_workspace_size\n    fn.restype = _C.c_int\n    fn.argtypes = [_C.POINTER(_C.c_size_t)", o);
        for (int j = 0; j < g->nparams; j++)
            if (g->params[j].kind == PARAM_ARRAY) fputs(", _C.POINTER(_Array)", o);
        fputs("]\n", o);
    }
    fputs("    lib.tilec_dtype_size.restype = _C.c_int\n    lib.tilec_dtype_size.argtypes = [_C.c_int32]\n", o);
    fputs("    _lib = lib\n    return lib\n\n\n", o);
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->is_kernel && !p->funcs[i]->internal) py_kernel(o, p->funcs[i], co, cuda);
        else if (p->funcs[i]->is_graph && p->funcs[i]->graph) py_graph(o, p->funcs[i], co, cuda);
    return true;
}
