#!/bin/sh
# tests/cli/run.sh: the command line as users and build systems meet it:
# options, exit statuses, outputs, atomic writes, dependency files, response
# files, determinism, colour.  Run from the repo root with TILEC and OUT set
# (tests/run.sh does); ends with "cli: N passed, N failed".
set -u
TILEC=${TILEC:-bin/tilec}
OUT=${OUT:-build/test/cli}
rm -rf "$OUT"
mkdir -p "$OUT"
p=0; f=0
pass() { p=$((p + 1)); }
fail() { echo "cli: FAIL: $1"; f=$((f + 1)); }
# expect_rc WHAT RC CMD...: runs CMD, output in $OUT/out and $OUT/err.
expect_rc() {
    what=$1 want=$2; shift 2
    "$@" > "$OUT/out" 2> "$OUT/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then pass; else fail "$what: exit $rc, want $want"; sed 's/^/    /' "$OUT/err" | head -5; fi
}
has() { # has WHAT FILE PATTERN (fixed string)
    if grep -qF -- "$3" "$2"; then pass; else fail "$1: '$3' not in $2"; sed 's/^/    /' "$2" | head -5; fi
}

K=$OUT/k.tile.c
cat > "$K" <<'SRC'
#include <tilec.h>
#include "sizes.h"
/* Adds one. */
TILE_KERNEL void inc(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {tile_bid(0)}, .shape = {BLOCK});
    tile_store(c, t + 1, .index = {tile_bid(0)});
}
SRC
mkdir -p "$OUT/inc"
echo '#define BLOCK 256' > "$OUT/inc/sizes.h"
BAD=$OUT/bad.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    float t = tile_zeros(float, .shape = {12});\n    tile_store(c, t, .index = {0});\n}\n' > "$BAD"
WARN=$OUT/warn.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    int unused = 1 + 2;\n    unused + 1;\n    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});\n}\n' > "$WARN"

# --- basics -------------------------------------------------------------------
expect_rc "--help" 0 "$TILEC" --help; has "--help" "$OUT/out" "usage: tilec"
expect_rc "--version" 0 "$TILEC" --version; has "--version" "$OUT/out" "tilec 0.1.0"
expect_rc "no input" 2 "$TILEC"
expect_rc "unknown option" 2 "$TILEC" --frobnicate "$K"; has "unknown option" "$OUT/err" "unknown option '--frobnicate'"
expect_rc "missing file" 2 "$TILEC" "$OUT/nope.tile.c"; has "missing file" "$OUT/err" "tilec: error: cannot open"
expect_rc "directory input" 2 "$TILEC" "$OUT"
expect_rc "bad target" 2 "$TILEC" --target=bogus "$K"
expect_rc "bad arch" 2 "$TILEC" --arch=foo "$K"
expect_rc "good arch" 0 "$TILEC" --arch=sm_90 -I "$OUT/inc" -o "$OUT/arch.cu" "$K"
expect_rc "bad max-threads" 2 "$TILEC" --max-threads=100 "$K"
expect_rc "-o needs a value" 2 "$TILEC" "$K" -o

# --- outputs ------------------------------------------------------------------
expect_rc "compile" 0 "$TILEC" -I "$OUT/inc" -o "$OUT/x.cu" "$K"
[ -f "$OUT/x.cu" ] && [ -f "$OUT/x.h" ] && pass || fail "-o x.cu writes x.cu and x.h"
has "header declares launcher" "$OUT/x.h" "tilec_status inc(tilec_stream stream, tilec_grid grid, const tilec_array *a, const tilec_array *c)"
has "header carries the doc comment" "$OUT/x.h" "Adds one."
has "#line maps to the source" "$OUT/x.cu" "#line 6 \"$K\""
expect_rc "--header into a missing directory" 2 "$TILEC" -I "$OUT/inc" -o "$OUT/y.cu" --header "$OUT/hdr/y_api.h" "$K"
[ ! -f "$OUT/y.cu" ] && pass || fail "a failed --header left the .cu behind"
mkdir -p "$OUT/hdr"
expect_rc "--header" 0 "$TILEC" -I "$OUT/inc" -o "$OUT/y.cu" --header "$OUT/hdr/y_api.h" "$K"
[ -f "$OUT/hdr/y_api.h" ] && has "--header include" "$OUT/y.cu" '#include "y_api.h"' || fail "--header file missing"
expect_rc "host target" 0 "$TILEC" --target=host -I "$OUT/inc" -o "$OUT/h.c" "$K"
has "host output is C" "$OUT/h.c" "static void tilec_k_inc_0("
expect_rc "--no-line-directives" 0 "$TILEC" --no-line-directives -I "$OUT/inc" -o "$OUT/nl.cu" "$K"
if grep -q '#line' "$OUT/nl.cu"; then fail "--no-line-directives still writes #line"; else pass; fi
expect_rc "-ffile-prefix-map" 0 "$TILEC" "-ffile-prefix-map=$OUT=/src" -I "$OUT/inc" -o "$OUT/pm.cu" "$K"
has "-ffile-prefix-map rewrites #line" "$OUT/pm.cu" '#line 6 "/src/k.tile.c"'
expect_rc "--emit=ast" 0 "$TILEC" --emit=ast -I "$OUT/inc" "$K"; has "--emit=ast" "$OUT/out" "kernel void inc"
expect_rc "--emit=typed" 0 "$TILEC" --emit=typed -I "$OUT/inc" "$K"; has "--emit=typed" "$OUT/out" "builtin load : float32 (256,)"
rm -f "$OUT"/*.cu "$OUT"/*.h
expect_rc "--check writes nothing" 0 "$TILEC" --check -I "$OUT/inc" "$K"
if ls "$OUT"/*.cu "$OUT"/*.h > /dev/null 2>&1; then fail "--check wrote files"; else pass; fi
expect_rc "--check several files, one bad" 1 "$TILEC" --check -I "$OUT/inc" "$K" "$BAD"
has "--check reports the bad file" "$OUT/err" "bad.tile.c:4:"
if grep -q "k.tile.c" "$OUT/err"; then fail "--check reports the good file"; else pass; fi
expect_rc "several files need --check" 2 "$TILEC" -I "$OUT/inc" "$K" "$BAD"
expect_rc "errors exit 1" 1 "$TILEC" -o "$OUT/bad.cu" "$BAD"
if ls "$OUT"/bad.cu "$OUT"/bad.h "$OUT"/*.tmp.* > /dev/null 2>&1; then fail "a failed compile left files"; else pass; fi
mkdir -p "$OUT/ro" && chmod 555 "$OUT/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect_rc "unwritable output" 2 "$TILEC" -I "$OUT/inc" -o "$OUT/ro/x.cu" "$K"
    if ls "$OUT"/ro/* > /dev/null 2>&1; then fail "unwritable output left a file"; else pass; fi
fi
expect_rc "output into a missing directory" 2 "$TILEC" -I "$OUT/inc" -o "$OUT/missing/x.cu" "$K"
has "output error names the file" "$OUT/err" "cannot write"
expect_rc "refuses to overwrite the input" 2 "$TILEC" -I "$OUT/inc" --target=host -o "$K" "$K"

# --- -D, -I, -U -----------------------------------------------------------------
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    tile_store(c, tile_zeros(float, .shape = {N}), .index = {0});\n}\n' > "$OUT/d.tile.c"
expect_rc "-D defines" 0 "$TILEC" --check -DN=8 "$OUT/d.tile.c"
expect_rc "-D N=12 is not a power of two" 1 "$TILEC" --check -D N=12 "$OUT/d.tile.c"
expect_rc "missing -I" 1 "$TILEC" --check "$K"
expect_rc "-U undefines" 1 "$TILEC" --check -DN=8 -UN "$OUT/d.tile.c"

# --- warnings and colour -----------------------------------------------------
expect_rc "warning exits 0" 0 "$TILEC" --check --color=never "$WARN"; has "warning printed" "$OUT/err" "warning:"
expect_rc "-Werror" 1 "$TILEC" --check -Werror "$WARN"
expect_rc "-w" 0 "$TILEC" --check -w "$WARN"
if [ -s "$OUT/err" ]; then fail "-w still prints"; else pass; fi
expect_rc "--color=always" 1 "$TILEC" --check --color=always "$BAD"
if grep -q "$(printf '\033')" "$OUT/err"; then pass; else fail "--color=always has no escapes"; fi
expect_rc "--color=never" 1 "$TILEC" --check --color=never "$BAD"
if grep -q "$(printf '\033')" "$OUT/err"; then fail "--color=never has escapes"; else pass; fi
NO_COLOR=1 "$TILEC" --check "$BAD" 2> "$OUT/err"
if grep -q "$(printf '\033')" "$OUT/err"; then fail "NO_COLOR ignored"; else pass; fi
has "caret line" "$OUT/err" "      |"

# --- dependency files ---------------------------------------------------------
expect_rc "-MD" 0 "$TILEC" -MD -I "$OUT/inc" -o "$OUT/dep.cu" "$K"
has "-MD targets" "$OUT/dep.d" "$OUT/dep.cu $OUT/dep.h:"
has "-MD source" "$OUT/dep.d" "$K"
has "-MD header" "$OUT/dep.d" "sizes.h"
has "-MD tilec.h" "$OUT/dep.d" "tilec.h"
has "-MD system headers" "$OUT/dep.d" "stdint.h"
expect_rc "-MMD" 0 "$TILEC" -MMD -I "$OUT/inc" -o "$OUT/dep2.cu" "$K"
has "-MMD keeps tilec.h" "$OUT/dep2.d" "tilec.h"
if grep -q "stdint.h" "$OUT/dep2.d"; then fail "-MMD lists system headers"; else pass; fi
expect_rc "-MF -MT -MP" 0 "$TILEC" -MMD -MF "$OUT/custom.d" -MT mytarget -MP -I "$OUT/inc" -o "$OUT/dep3.cu" "$K"
has "-MT" "$OUT/custom.d" "mytarget:"
has "-MP phony" "$OUT/custom.d" "sizes.h:"
expect_rc "-MQ" 0 "$TILEC" -MMD -MF "$OUT/q.d" -MQ 'a$b' -I "$OUT/inc" -o "$OUT/dep4.cu" "$K"
has "-MQ quotes \$" "$OUT/q.d" 'a$$b:'
rm -f "$OUT/m.cu"
expect_rc "-M" 0 "$TILEC" -M -I "$OUT/inc" -o "$OUT/m.cu" "$K"
has "-M prints" "$OUT/out" "sizes.h"
[ ! -f "$OUT/m.cu" ] && pass || fail "-M wrote the .cu"
mkdir -p "$OUT/with space"
cp "$K" "$OUT/with space/k.tile.c"; cp "$OUT/inc/sizes.h" "$OUT/with space/"
expect_rc "space in path" 0 "$TILEC" -MD -I "$OUT/with space" -o "$OUT/with space/s.cu" "$OUT/with space/k.tile.c"
has "space escaped" "$OUT/with space/s.d" 'with\ space/k.tile.c'

# --- response files -------------------------------------------------------------
printf -- '-I "%s/inc"\n-o "%s/r.cu"\n' "$OUT" "$OUT" > "$OUT/args.rsp"
expect_rc "@file" 0 "$TILEC" "@$OUT/args.rsp" "$K"
[ -f "$OUT/r.cu" ] && pass || fail "@file options not applied"
expect_rc "@missing" 2 "$TILEC" "@$OUT/none.rsp" "$K"

# --- determinism and stable timestamps ---------------------------------------
mkdir -p "$OUT/d1/deep/er" "$OUT/d2"
cp "$K" "$OUT/inc/sizes.h" "$OUT/d1/deep/er/"; cp "$K" "$OUT/inc/sizes.h" "$OUT/d2/"
(cd "$OUT/d1/deep/er" && "$TILEC" --no-line-directives -I . -o out.cu k.tile.c) &&
"$TILEC" --no-line-directives -I "$OUT/d2" -o "$OUT/d2/out.cu" "$(cd "$OUT/d2" && pwd)/k.tile.c"
if cmp -s "$OUT/d1/deep/er/out.cu" "$OUT/d2/out.cu" && cmp -s "$OUT/d1/deep/er/out.h" "$OUT/d2/out.h"; then pass; else
    fail "outputs differ between directories"; diff "$OUT/d1/deep/er/out.cu" "$OUT/d2/out.cu" | head -5; fi
"$TILEC" -I "$OUT/inc" -o "$OUT/same.cu" "$K"; t1=$(stat -c %Y "$OUT/same.cu"); sleep 1
"$TILEC" -I "$OUT/inc" -o "$OUT/same.cu" "$K"; t2=$(stat -c %Y "$OUT/same.cu")
[ "$t1" = "$t2" ] && pass || fail "an unchanged output was rewritten"

# --- subcommands ----------------------------------------------------------------
expect_rc "promote" 0 "$TILEC" promote int16 float32; has "promote result" "$OUT/out" "float32"
expect_rc "promote error" 1 "$TILEC" promote int8 uint8
expect_rc "broadcast" 0 "$TILEC" broadcast "(16,8)" "(8,)"; has "broadcast result" "$OUT/out" "(16,8)"
expect_rc "layout" 0 "$TILEC" layout coalesce "(2,1):(3,1)"; has "layout result" "$OUT/out" "2:3"

echo "cli: $p passed, $f failed"
[ "$f" -eq 0 ]
