#!/bin/sh
# prepare.sh: runs HERE (where libclang and tilec are) and builds nothing but
# generated sources.  For each benchmark kernel tests/bench/kernels/NAME.tile.c
# it writes build/bench/NAME.cu, NAME.h and the Python module NAME.py with
# `tilec -O2 --arch=sm_90 --python` (plus
# the options of a line " * tilec-flags: ..." in the file's comment; the
# tuned kernels twice, with and without their tuning table), and
# copies the runtime headers and runtime/tilec_rt.c beside them, so that
# build/bench/ alone suffices on the GPU machine, where tests/bench/bench.py
# compiles it with nvcc into one shared library.
#
# A kernel file that tilec rejects is listed in build/bench/rejected.txt with
# tilec's first error line; the others are still generated, and bench.py shows
# the rejected kernels' rows as missing.  Exit status 1 in that case.
#
# Usage (from anywhere):  sh tests/bench/prepare.sh
set -eu
cd "$(dirname "$0")/../.."
make -s bin/tilec # a no-op when tilec is current
out=build/bench
mkdir -p "$out"
# Start clean: bench.py compiles every build/bench/*.cu, so stale files of
# kernels that no longer exist (and an old library) must go.
rm -rf "$out"/*.cu "$out"/*.h "$out"/*.py "$out"/__pycache__ "$out"/*.so "$out"/tilec_rt.c "$out"/obj "$out"/rejected.txt
ok=0 bad=0
# gen SRC NAME FLAGS...: one kernel file to $out/NAME.cu, .h and .py
gen() {
    src=$1 name=$2
    shift 2
    if bin/tilec -O2 --arch=sm_90 "$@" --python -o "$out/$name.cu" "$src" 2>"$out/$name.err"; then
        ok=$((ok + 1))
        rm -f "$out/$name.err"
    else
        bad=$((bad + 1))
        cat "$out/$name.err" >&2
        printf '%s: %s\n' "$src" "$(grep -m1 'error:' "$out/$name.err" || head -n1 "$out/$name.err")" >>"$out/rejected.txt"
        rm -f "$out/$name.err"
    fi
}
for src in tests/bench/kernels/*.tile.c; do
    name=$(basename "$src" .tile.c)
    # A kernel file may ask for options in a comment line " * tilec-flags: ...".
    flags=$(sh tests/bench/kernel_flags.sh "$src")
    # A kernel with TILE_TUNABLE constants (NAME_tuned) is compiled with its
    # measured table tests/bench/tuning/NAME.txt (tests/gpu/tune.sh writes
    # it), and a second time without one as NAME_untuned: the launchers
    # renamed untuned_KERNEL, always at the first listed values (the untuned
    # default the tuned choice is measured against).
    tuning=tests/bench/tuning/$name.txt
    if [ -f "$tuning" ]; then
        # shellcheck disable=SC2086 # flags are words
        gen "$src" "$name" $flags --tuning "$tuning"
        # shellcheck disable=SC2086
        gen "$src" "${name%_tuned}_untuned" $flags --symbol-prefix=untuned_
    else
        # shellcheck disable=SC2086
        gen "$src" "$name" $flags
    fi
done
cp runtime/tilec_rt.h runtime/tilec_dlpack.h runtime/tilec_dtypes.h runtime/tilec_rt.c runtime/tilec_ops.h runtime/tilec_fp.h runtime/tilec_sm90.h runtime/tilec_flash.h "$out/"
echo "prepared $out: $ok kernel files generated, $bad rejected"
if [ "$bad" -ne 0 ]; then
    echo "tilec rejected (their rows will read 'missing'):" >&2
    cat "$out/rejected.txt" >&2
    exit 1
fi
