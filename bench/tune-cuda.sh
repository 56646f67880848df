#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sweep the CUDA backend's tuning constants on a GPU machine: one full build
# (build-tune/base), then per variant only the CUDA backend's sources are
# recompiled with the variant's -D flags and libprism relinked into
# build-tune/NAME; the base prism-bench runs each variant's library (through
# LD_LIBRARY_PATH) against CUB in the same run. A variant costs the compile
# of its files (seconds on a 16-core host), not a whole build.
#   bench/tune-cuda.sh "NAME:-DPRISM_CUDA_SCAN_THREADS_4=128 ..." ...
#   BENCH_ARGS="sort --type u32 --values 0,4 --n 2^28" bench/tune-cuda.sh ...
#   BENCH_ARGS="bfs --graph rmat:22,grid:2048x2048 --backend cuda --sources 8" \
#     FILES=backend_cuda/bfs.cu bench/tune-cuda.sh "w1:-DPRISM_CUDA_BFS_WAVE_PER_SM=1"
# Each argument names a variant and the -D flags it adds (see
# backend_cuda/tuning.cuh for the knobs: PRISM_CUDA_SCAN_*, PRISM_CUDA_SORT_*,
# PRISM_CUDA_HIST_*, PRISM_CUDA_SELECT_*, PRISM_CUDA_SEG_*, PRISM_CUDA_BFS_*).
# A variant named "base" times the defaults.
# Environment: BENCH_ARGS (what to time; default the scan), FILES (the
# sources to recompile; default every backend_cuda/*.cu), ARCH (default 90),
# BASE (the base build tree; default build-tune/base).
# Output: one table per variant.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD
arch=${ARCH:-90}
bench_args=${BENCH_ARGS:-"scan --backend cuda --type i32,f32,u64 --n 2^24,2^28 --reps 15"}
base=${BASE:-build-tune/base}
jobs=$(nproc)
mkdir -p build-tune
log=build-tune/base.log

# A BASE given is used as it is configured (it needs
# CMAKE_EXPORT_COMPILE_COMMANDS=ON); the default one is configured here.
if [ -z "${BASE:-}" ]; then
  cmake -S . -B "$base" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DPRISM_WITH_CUDA=ON \
    -DPRISM_WITH_OPENCL=OFF -DPRISM_BUILD_TESTS=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$log" 2>&1 ||
    { echo "the base configure failed: $log"; exit 1; }
fi
cmake --build "$base" -j "$jobs" --target prism-bench >>"$log" 2>&1 ||
  { echo "the base build failed: $log"; exit 1; }
base=$(cd "$base" && pwd)
files=${FILES:-$(ls backend_cuda/*.cu)}

# The compile commands of $files into $dir/compile.sh, one line each, with
# the flags added and the objects in $dir; the objects' paths, relative to
# the base tree, into $dir/objects.
write_commands() {
  local dir=$1 flags=$2
  # shellcheck disable=SC2086 # files: a list
  python3 - "$base" "$dir" "$flags" $files <<'EOF'
import json, os, shlex, sys
base, out, flags, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
want = {os.path.realpath(f) for f in files}
cmds, objs = [], []
for e in json.load(open(os.path.join(base, 'compile_commands.json'))):
    if os.path.realpath(e['file']) not in want:
        continue
    args = shlex.split(e['command'])
    at = args.index('-o') + 1
    objs.append(args[at])
    args[at] = os.path.join(out, os.path.basename(args[at]))
    args[1:1] = shlex.split(flags)
    cmds.append('cd %s && %s' % (shlex.quote(e['directory']),
                                 ' '.join(shlex.quote(a) for a in args)))
if len(cmds) != len(want):
    sys.exit('no compile command for some of: ' + ' '.join(files))
open(os.path.join(out, 'compile.sh'), 'w').write('\n'.join(cmds) + '\n')
open(os.path.join(out, 'objects'), 'w').write('\n'.join(objs) + '\n')
EOF
}

# libprism.so.0 in $dir: the base's link with the variant's objects.
relink() {
  local dir=$1 link obj
  link=$(cat "$base/CMakeFiles/prism.dir/link.txt")
  for f in "$base"/CMakeFiles/prism.dir/objects*; do
    [ -f "$f" ] || continue
    cp "$f" "$dir/$(basename "$f")"
    link=${link//@CMakeFiles\/prism.dir\/$(basename "$f")/@$dir/$(basename "$f")}
  done
  while read -r obj; do
    for f in "$dir"/objects*; do
      [ -f "$f" ] && sed -i "s#$obj#$dir/$(basename "$obj")#" "$f"
    done
    link=${link//$obj/$dir/$(basename "$obj")}
  done <"$dir/objects"
  link=$(sed -E "s#-o libprism\.so[.0-9]*#-o $dir/libprism.so.0#" <<<"$link")
  (cd "$base" && eval "$link")
}

for spec in "$@"; do
  name=${spec%%:*} flags=${spec#*:}
  [ "$name" = "$spec" ] && flags=""
  dir=$root/build-tune/$name
  if [ "$name" != base ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    if ! write_commands "$dir" "$flags" ||
      ! xargs -d '\n' -P "$jobs" -I{} sh -c {} <"$dir/compile.sh" >"$dir.log" 2>&1 ||
      ! relink "$dir" >>"$dir.log" 2>&1; then
      echo "== $name: the build failed ($dir.log)"
      continue
    fi
  fi
  echo "== $name: ${flags:-defaults}"
  # shellcheck disable=SC2086
  LD_LIBRARY_PATH=$([ "$name" = base ] && echo "$base" || echo "$dir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    "$base/bench/prism-bench" $bench_args | grep -E "^(cuda|cub|naive)  "
done
