#!/usr/bin/env bash
# The sanitizer runs (docs/hardening.md):
#   .ci/sanitize.sh asan   the `asan` preset (AddressSanitizer + UBSan, gcc): the unit and gl labels
#                          (Mesa's software GL where there is no GPU); with a GPU, pass --gpu to run
#                          the cuda and interop labels too (the faulting cases excluded: they fault
#                          on purpose and run in .ci/gpu-suite.sh)
#   .ci/sanitize.sh tsan   the `tsan` preset (ThreadSanitizer): the threaded unit tests (compile
#                          service, file watcher, debouncer, live modules and their build swaps,
#                          compile cache, the supervision channel and shell link)
# Zero reports: any report fails the test it happened in. Suppressions (.ci/sanitizers/) name only
# third-party libraries, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:?usage: .ci/sanitize.sh asan [--gpu] | tsan}
gpu=${2:-}
supp=$PWD/.ci/sanitizers
jobs=$(nproc)

# Every process writes its sanitizer reports to files here, the test binaries and every process
# they start (supervised workers, checked re-runs, the app under Xvfb): a worker that dies of a
# report is otherwise just a crashed worker that the supervision tests expect to survive.
reports() {
    local dir=$1
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "$dir"
}
check_reports() {
    local dir=$1
    if compgen -G "$dir/*" >/dev/null; then
        echo "sanitize: reports written (in $dir):" >&2
        for f in "$dir"/*; do
            echo "=== $f" >&2
            head -60 "$f" >&2
        done
        return 1
    fi
    echo "sanitize: no reports"
}

case $which in
    asan)
        ./build.sh preset asan ks_unit_tests ks_gl_tests kernelscope \
            $([ "$gpu" = --gpu ] && echo ks_cuda_tests ks_interop_tests)
        # protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
        out=$(reports "$PWD/build-asan/sanitizer-reports")
        export ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0:log_path=$out/asan"
        export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
        export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$out/ubsan"
        labels="unit|gl"
        exclude="^$"
        if [ "$gpu" = --gpu ]; then
            labels="unit|gl|cuda|interop"
            exclude="Fault|FindFault|Runaway"
        fi
        status=0
        ctest --test-dir build-asan --output-on-failure -j "$jobs" -L "$labels" -E "$exclude" || status=1
        check_reports "$out" || status=1
        exit $status
        ;;
    tsan)
        ./build.sh preset tsan ks_unit_tests
        out=$(reports "$PWD/build-tsan/sanitizer-reports")
        export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:log_path=$out/tsan"
        filter='CompileService.*:FileWatcher.*:Debouncer.*:LiveModule.*:LiveKernelSources.*:CacheFixture.*'
        filter+=':KernelDocument.*:RecoveryStore.*:ShellLink.*:ProcChannel.*:ProcChild.*:FakeChild.*'
        status=0
        build-tsan/tests/ks_unit_tests --gtest_filter="$filter" --gtest_brief=1 || status=1
        check_reports "$out" || status=1
        exit $status
        ;;
    *)
        echo "usage: .ci/sanitize.sh asan [--gpu] | tsan" >&2
        exit 2
        ;;
esac
