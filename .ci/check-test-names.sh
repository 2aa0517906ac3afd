#!/usr/bin/env bash
# Checks that every test file is named after the module it covers (CONTRIBUTING.md, "Tests").
#   .ci/check-test-names.sh [SOURCE_DIR]      (default: .)
# A test file is tests/<label>/test_<name>.cpp (label: unit, cuda, gl, interop), and <name> is
#   <layer>_<file>  where engine/src/<layer>/<file>.{cpp,cu,cuh} or engine/include/ks/<layer>/<file>.hpp
#                   exists, or
#   <dir>_<file>    where app/<dir>/<file>.{cpp,hpp} exists.
# The same name may appear under two labels (a host test and the GPU test of one module); within a
# label a name is one file, so two test files of one module and label are one file. Prints every
# test file whose name matches no module and exits 1; exits 0 when there is none.
set -euo pipefail
root=${1:-.}
cd "$root" 2>/dev/null || { echo "check-test-names: no folder $root" >&2; exit 2; }
if [ ! -d engine/src ] || [ ! -d engine/include/ks ] || [ ! -d app ] || [ ! -d tests ]; then
    echo "check-test-names: no engine/, app/ or tests/ under $root" >&2
    exit 2
fi

# Every module name a test may take, one a line.
modules=$(
    {
        for f in engine/src/*/*.cpp engine/src/*/*.cu engine/src/*/*.cuh engine/include/ks/*/*.hpp \
                 app/*/*.cpp app/*/*.hpp; do
            [ -f "$f" ] || continue
            dir=${f%/*}
            base=${f##*/}
            echo "${dir##*/}_${base%.*}"
        done
    } | sort -u
)

count=0
fail=0
shopt -s nullglob
for f in tests/unit/test_*.cpp tests/cuda/test_*.cpp tests/gl/test_*.cpp tests/interop/test_*.cpp; do
    count=$((count + 1))
    base=${f##*/}
    name=${base#test_}
    name=${name%.cpp}
    if ! grep -qxF -- "$name" <<<"$modules"; then
        prefix=${name%%_*}
        rest=${name#*_}
        [ "$rest" = "$name" ] && rest="<file>"
        echo "$f: no module engine/src/$prefix/$rest.{cpp,cu,cuh}, engine/include/ks/$prefix/$rest.hpp" \
             "or app/$prefix/$rest.{cpp,hpp} (name it test_<layer>_<file> or test_<dir>_<file>)"
        fail=1
    fi
done

if [ $fail -ne 0 ]; then
    echo "check-test-names: test files not named after the module they cover (see CONTRIBUTING.md, \"Tests\")"
    exit 1
fi
echo "check-test-names: every test file is named after its module ($count files)"
