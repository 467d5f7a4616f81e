#!/bin/sh
# compile_time.sh (runs here, on the CPU): for every examples/*/*.tile.c and
# benchmark kernel tests/bench/kernels/*.tile.c, tilec's own time for the file
# (`tilec -O2 --arch=sm_90`, the process included) and nvcc's time for the
# generated .cu (`nvcc -O3 -arch=sm_90 -c`), each the median of 3 runs,
# printed as a Markdown table.  Outputs go to $OUT (default build/compile-time).
# A file that fails to compile gets "failed" in its row and exit status 1.
set -u
cd "$(dirname "$0")/../.." || exit 2
make -s bin/tilec || exit 2
command -v nvcc >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-build/compile-time}
mkdir -p "$OUT"
now() { date +%s.%N; }
# time3 CMD...: the median wall time of 3 runs of CMD (seconds), or "failed".
time3() {
    ts=""
    for r in 1 2 3; do
        s=$(now)
        "$@" >"$OUT/log" 2>&1 || { echo failed; return; }
        e=$(now)
        ts="$ts $(echo "$e - $s" | bc)"
    done
    printf '%s\n' $ts | sort -n | sed -n 2p
}
fmt() { case $1 in failed) echo failed ;; *) printf "%.${2}f" "$1" ;; esac; }
status=0
echo "| kernel file | tilec -O2 --arch=sm_90 (s) | nvcc -O3 -arch=sm_90 -c (s) |"
echo "|---|---:|---:|"
for src in examples/*/*.tile.c tests/bench/kernels/*.tile.c; do
    name=$(basename "$src" .tile.c)
    case $src in tests/*) name=bench_$name ;; esac # examples/vec_add vs the bench vec_add
    tt=$(time3 bin/tilec -O2 --arch=sm_90 -I "$(dirname "$src")" -o "$OUT/$name.cu" "$src")
    if [ "$tt" = failed ]; then
        nt=failed
        sed 's/^/    /' "$OUT/log" >&2
    else
        nt=$(time3 nvcc -O3 -arch=sm_90 -Iruntime -I"$OUT" -c "$OUT/$name.cu" -o "$OUT/$name.o")
        [ "$nt" = failed ] && sed 's/^/    /' "$OUT/log" >&2
    fi
    [ "$tt" = failed ] || [ "$nt" = failed ] && status=1
    printf '| %s | %s | %s |\n' "$src" "$(fmt "$tt" 3)" "$(fmt "$nt" 2)"
done
rm -f "$OUT/log"
exit $status
