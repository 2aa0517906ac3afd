#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan) and runs each for a bounded time
# from its seeds: tests/fuzz/corpus/<target>, every input ever found (tests/fuzz/regressions/<target>)
# and the tree's own files of its kind (projects/*.json, kernels/**/*.cu[h]).
#
#   .ci/fuzz.sh [target ...]
#
# Two modes:
# - reproducible (the default, what CI runs): a fixed seed (KS_FUZZ_SEED, default 1) and a fixed
#   number of runs per target, about 60 s each on a 2-core machine, so that the run CI makes is the
#   run made here before committing: a red CI run is never a new random discovery.
# - exploring: KS_FUZZ_SECONDS=N runs each target for N seconds from a random seed (or
#   KS_FUZZ_SEED). Use it to look for new findings; each becomes a regression input.
#
# Prints one line per target: runs, runs per second, coverage (edges) and features reached, and
# fails naming the input saved under build-fuzz/findings/ when a target crashed, leaked, timed out
# or broke a promise. A finding becomes a regression input: copy it into tests/fuzz/regressions/
# <target>/ (the unit test FuzzInputs runs it from then on) and fix what it found.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${KS_FUZZ_SECONDS:-}
seed=${KS_FUZZ_SEED:-}
# Runs per target in the reproducible mode: about 60 s each where CI runs (2 cores, ASan + UBSan).
# signatures infers a project for every kernel it finds, so it makes fewer runs in that time.
declare -A runs_of=([project]=150000 [json]=700000 [diagnostics]=300000 [includes]=75000
                    [signatures]=12000 [highlight]=60000 [array_specs]=330000 [recovery]=2000000 [cache_entry]=2500000
                    [data]=12000)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(project json diagnostics includes signatures highlight array_specs recovery cache_entry data)

./build.sh preset fuzz ks_fuzzers

build=build-fuzz
work=$build/corpus
findings=$build/findings
mkdir -p "$findings"
# One target: its corpus, its run, its summary line in $build/fuzz-$t.line; exit 1 on a finding.
run_target() {
    local t=$1
    local corpus=$work/$t
    rm -rf "$corpus"
    mkdir -p "$corpus"
    for d in tests/fuzz/corpus/$t tests/fuzz/regressions/$t; do
        [ -d "$d" ] && find "$d" -type f -exec cp -t "$corpus" {} +
    done
    case $t in
        project|json) find projects -name '*.json' -exec cp --backup=numbered -t "$corpus" {} + ;;
        signatures|includes|highlight) find kernels -name '*.cu' -o -name '*.cuh' | xargs cp --backup=numbered -t "$corpus" ;;
    esac
    local dict=()
    case $t in
        project|json) dict=(-dict=tests/fuzz/dict/project.dict) ;;
        signatures|includes|highlight|array_specs|diagnostics) dict=(-dict=tests/fuzz/dict/cuda.dict) ;;
    esac
    local log=$build/fuzz-$t.log bound rc
    if [ -n "$seconds" ]; then
        bound=(-max_total_time="$seconds" ${seed:+-seed="$seed"})
    else
        # The time cap only guards against a much slower machine; it is not meant to be reached.
        bound=(-runs="${runs_of[$t]}" -seed="${seed:-1}" -max_total_time=300)
    fi
    set +e
    "$build/tests/fuzz/ks_fuzz_$t" "$corpus" "${dict[@]}" "${bound[@]}" -max_len=65536 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$t-" >"$log" 2>&1
    rc=$?
    set -e
    local runs rate cov ft line found
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    line=$(printf '%-12s %10s runs %8s/s  cov %6s  ft %6s' "$t" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}")
    if [ $rc -ne 0 ]; then
        found=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //')
        line="$line  FAILED (exit $rc; input: ${found:-none saved}; log: $log)"
        grep -m1 -A12 -E "ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:|a promise was broken|terminate called" "$log" || true
    fi
    echo "$line" | tee "$build/fuzz-$t.line"
    return $rc
}

# The targets run side by side, one per core: each is one process with its own fixed seed and run
# count, so what each finds does not depend on what runs beside it.
jobs=${KS_FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
    rm -f "$build/fuzz-$t.line"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    run_target "$t" &
done
wait || true
failed=()
summary=()
for t in "${targets[@]}"; do
    line=$(cat "$build/fuzz-$t.line" 2>/dev/null || echo "$t: no result (the run died)")
    summary+=("$line")
    [[ $line == *FAILED* || $line == *"no result"* ]] && failed+=("$t")
done

if [ -n "$seconds" ]; then
    echo "fuzz: ${seconds} s per target${seed:+, seed $seed}"
else
    echo "fuzz: fixed runs per target, seed ${seed:-1}"
fi
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]} (inputs in $findings)" >&2
    exit 1
fi
