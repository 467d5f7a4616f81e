#!/bin/sh
# run.sh: the whole test suite, as `make check` runs it.  Each section prints
# "section: N passed, N failed"; the last line adds them all up.  The
# compiler under test is the ASan/UBSan build (bin/tilec-san); generated host
# code and the example applications are built with the sanitizers too.
# Set TILEC_TEST_FILTER=section to run one section (unit, golden, diag, cli,
# docs, layout, fuzz, host, dlpack, python, valgrind, install, project, pypkg, nvcc,
# conformance).
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec-san}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TOP/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
OUT=$TOP/build/test
rm -rf "$OUT"
mkdir -p "$OUT"
TOTAL_P=0
TOTAL_F=0

# Each section's wall time goes to $OUT/times.txt ("SECONDS NAME"), and the
# slowest are listed at the end: make check should stay near 15 minutes on
# two cores (CI's budget), and this says where the time goes.
LAST_T=$(date +%s)
section() { # name passed failed
    echo "$1: $2 passed, $3 failed"
    TOTAL_P=$((TOTAL_P + $2))
    TOTAL_F=$((TOTAL_F + $3))
    now=$(date +%s)
    echo "$((now - LAST_T)) $1" >> "$OUT/times.txt"
    LAST_T=$now
}

want() { case "${TILEC_TEST_FILTER:-}" in ""|*"$1"*) return 0 ;; *) return 1 ;; esac; }

# script_section NAME [VAR=VALUE...] COMMAND...: runs a section's own script,
# shows what it printed (less its "ok" lines and its "NAME: N passed, N
# failed" summary) and adds that summary; no summary counts as one failure.
script_section() {
    name=$1; shift
    out=$(env "$@" 2>&1)
    printf '%s\n' "$out" | grep -v "^$name:" | grep -v '^ok '
    line=$(printf '%s\n' "$out" | grep "^$name:" | tail -n 1)
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    section "$name" "${p:-0}" "${f:-1}"
}

# --- unit tests ---------------------------------------------------------
if want unit; then
    out=$(sh tests/run_unit.sh build/unit/test_* 2>&1)
    printf '%s\n' "$out" | grep -v '^unit:'
    line=$(printf '%s\n' "$out" | grep '^unit:')
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    section unit "${p:-0}" "${f:-1}"
fi

# --- golden AST and tile-IR dumps ----------------------------------------------------
if want golden; then
    p=0; f=0
    for src in examples/*/*.tile.c tests/golden/*.tile.c; do
        [ -f "$src" ] || continue
        name=$(basename "$src" .tile.c)
        # array kernels' typed dumps are their rewritten tile kernels once per
        # specialization (megabytes): the tir dump covers them
        kinds="ast typed tir"
        grep -qE 'TILE_ARRAY_KERNEL|TILE_GRAPH' "$src" && kinds="ast tir"
        for kind in $kinds; do
            gold=tests/golden/$name.$kind
            if [ ! -f "$gold" ]; then
                echo "golden: missing $gold (make golden-update writes it)"; f=$((f + 1)); continue
            fi
            if "$TILEC" --emit=$kind "$src" > "$OUT/$name.$kind" 2> "$OUT/$name.$kind.err" &&
               diff -u "$gold" "$OUT/$name.$kind" > "$OUT/$name.$kind.diff"; then
                p=$((p + 1))
            else
                echo "golden: $src --emit=$kind differs:"; head -20 "$OUT/$name.$kind.diff" "$OUT/$name.$kind.err"; f=$((f + 1))
            fi
        done
        # a source with kernel graphs: its --remarks (which calls fused, and why not)
        grep -q TILE_GRAPH "$src" || continue
        gold=tests/golden/$name.remarks
        if [ ! -f "$gold" ]; then
            echo "golden: missing $gold (make golden-update writes it)"; f=$((f + 1)); continue
        fi
        if "$TILEC" --check --remarks --color=never "$src" > "$OUT/$name.remarks" 2>&1 &&
           diff -u "$gold" "$OUT/$name.remarks" > "$OUT/$name.remarks.diff"; then
            p=$((p + 1))
        else
            echo "golden: $src --remarks differs:"; head -20 "$OUT/$name.remarks.diff"; f=$((f + 1))
        fi
    done
    section golden $p $f
fi

# --- seed 001 conformance ----------------------------------------------------
# tests/conformance/NN_*.txt: each entity of seed 001 accepted (compiled for
# both targets) or rejected with its exact errors, section by section.
if want conformance; then
    script_section conformance TILEC="$TILEC" OUT="$OUT/conformance" sh tests/conformance/run.sh
fi

# --- diagnostics -----------------------------------------------------------
# Each tests/diag/*.tile.c holds lines "// expect: LINE" with the exact
# diagnostic line tilec must print; tilec must exit 1.
if want diag; then
    p=0; f=0
    for src in tests/diag/*.tile.c; do
        [ -f "$src" ] || continue
        "$TILEC" --check --color=never "$src" > /dev/null 2> "$OUT/diag.err"
        rc=$?
        ok=1
        if [ $rc -ne 1 ]; then echo "diag: $src: exit status $rc, want 1"; ok=0; fi
        grep '// expect: ' "$src" | sed 's|.*// expect: ||' > "$OUT/diag.want"
        if [ ! -s "$OUT/diag.want" ]; then echo "diag: $src has no '// expect:' line"; ok=0; fi
        while IFS= read -r exp; do
            if ! grep -qxF "$exp" "$OUT/diag.err"; then
                echo "diag: $src: missing: $exp"; echo "  got:"; sed 's/^/    /' "$OUT/diag.err" | head -12; ok=0
            fi
        done < "$OUT/diag.want"
        # "// expect-no-other-errors": a cascade of follow-on errors fails.
        if grep -q '// expect-no-other-errors' "$src"; then
            grep ': error: ' "$OUT/diag.err" | grep -vxF -f "$OUT/diag.want" > "$OUT/diag.extra"
            if [ -s "$OUT/diag.extra" ]; then
                echo "diag: $src: unexpected:"; sed 's/^/    /' "$OUT/diag.extra" | head -12; ok=0
            fi
        fi
        if [ $ok -eq 1 ]; then p=$((p + 1)); else f=$((f + 1)); fi
    done
    # A .tile.c handed to a C compiler (a *.c glob, make's implicit rule)
    # stops at tilec.h's #error instead of compiling and failing at link.
    want_msg="this is Tile C: compile it with tilec, not a C compiler"
    mkdir -p "$OUT/plain"
    cp examples/vec_add/vec_add.tile.c "$OUT/plain/"
    if ${CC:-cc} -c -I runtime -o "$OUT/plain/cc.o" examples/vec_add/vec_add.tile.c 2> "$OUT/plain/cc.err"; then
        echo "diag: a C compiler compiled examples/vec_add/vec_add.tile.c"; f=$((f + 1))
    elif ! grep -qF "$want_msg" "$OUT/plain/cc.err"; then
        echo "diag: the C compiler's error lacks: $want_msg"; head -5 "$OUT/plain/cc.err"; f=$((f + 1))
    else
        p=$((p + 1))
    fi
    if make -s -C "$OUT/plain" -f /dev/null CC="${CC:-cc}" CFLAGS="-I$TOP/runtime" vec_add.tile.o > "$OUT/plain/make.err" 2>&1; then
        echo "diag: make's implicit %.o: %.c rule compiled vec_add.tile.c"; f=$((f + 1))
    elif ! grep -qF "$want_msg" "$OUT/plain/make.err"; then
        echo "diag: make's implicit rule failed without: $want_msg"; head -5 "$OUT/plain/make.err"; f=$((f + 1))
    else
        p=$((p + 1))
    fi
    section diag $p $f
fi

# --- command line ------------------------------------------------------------
if want cli; then
    script_section cli TILEC="$TILEC" OUT="$OUT/cli" sh tests/cli/run.sh
fi

# --- documentation: every complete kernel in the docs compiles ----------------
if want docs; then
    script_section docs TILEC="$TILEC" OUT="$OUT/docs" sh tests/docs/check_docs.sh
fi

# --- layout algebra through the CLI -----------------------------------------
if want layout; then
    p=0; f=0
    if "$TILEC" layout --batch < tests/layout/batch_cases.txt > "$OUT/layout.out" 2>&1 &&
       diff -u tests/layout/batch_expected.txt "$OUT/layout.out" > "$OUT/layout.diff"; then
        p=$((p + 1))
    else
        echo "layout: batch output differs:"; head -30 "$OUT/layout.diff"; f=$((f + 1))
    fi
    section layout $p $f
fi

# --- fuzz corpus: every input the fuzzers found, and every source we have ------
if want fuzz; then
    p=0; f=0
    files=$(ls tests/fuzz/corpus/frontend/* examples/*/*.tile.c tests/kernels/*/*.tile.c tests/diag/*.tile.c tests/golden/*.tile.c 2>/dev/null)
    if TILEC_INCLUDE=$TOP/runtime build/fuzz/replay_frontend fuzz-frontend $files > "$OUT/fuzz.out" 2>&1; then
        p=$((p + 1))
    else
        echo "fuzz: frontend replay failed:"; tail -30 "$OUT/fuzz.out"; f=$((f + 1))
    fi
    if build/fuzz/replay_layout fuzz-layout tests/fuzz/corpus/layout/* tests/layout/batch_cases.txt > "$OUT/fuzzl.out" 2>&1; then
        p=$((p + 1))
    else
        echo "fuzz: layout replay failed:"; tail -30 "$OUT/fuzzl.out"; f=$((f + 1))
    fi
    section fuzz $p $f
fi

# --- host backend: compile and run every example and test kernel -------------
if want host; then
    script_section host TILEC="$TILEC" OUT="$OUT/host" sh tests/run_examples.sh host
fi

# --- DLPack: the runtime's ABI without and with a system dlpack.h; NumPy capsules --
if want dlpack; then
    script_section dlpack TILEC="$TILEC" OUT="$OUT/dlpack" sh tests/dlpack/run.sh
fi

# --- Python: every example's host-target module called from Python on NumPy arrays --
if want python; then
    script_section python TILEC="$TILEC" OUT="$OUT/python" sh tests/python/run.sh
fi

# --- valgrind memcheck on a sample of compilations (no leaks of tilec's own) --
if want valgrind && command -v valgrind > /dev/null 2>&1; then
    p=0; f=0
    for src in examples/vec_add/vec_add.tile.c tests/kernels/reductions/reductions.tile.c; do
        for tgt in cuda host; do
            if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
                    --suppressions=tests/valgrind.supp bin/tilec --target=$tgt -o "$OUT/vg.out" "$src" \
                    > "$OUT/vg.log" 2>&1; then
                p=$((p + 1))
            else
                echo "valgrind: $src --target=$tgt:"; head -30 "$OUT/vg.log"; f=$((f + 1))
            fi
        done
    done
    section valgrind $p $f
fi

# --- make install and a user's Makefile ------------------------------------------
if want install; then
    script_section install OUT="$OUT/install" sh tests/install/run.sh
fi

# --- out-of-tree projects: make, CMake (Ninja and Makefiles), shared libraries, ccache --
if want project; then
    script_section project OUT="$OUT/project" sh tests/project/run.sh
fi

# --- the Python module's library and wheel: make, CMake, scikit-build-core ------
if want pypkg; then
    script_section pypkg OUT="$OUT/pypkg" sh tests/pypkg/run.sh
fi

# --- nvcc: every generated .cu compiles for sm_80 and sm_90, warnings fatal --
if want nvcc; then
    script_section nvcc TILEC="$TILEC" OUT="$OUT/nvcc" sh tests/nvcc_check.sh
fi

[ -f "$OUT/times.txt" ] && echo "slowest sections (seconds): $(sort -rn "$OUT/times.txt" | head -n 6 | awk '{printf "%s %s, ", $2, $1}' | sed 's/, $//')"
echo "$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_F" -eq 0 ]
