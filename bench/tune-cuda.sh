#!/usr/bin/env bash
# Sweep the CUDA backend's tuning constants on a GPU machine: one build per
# variant (in parallel), then prism-bench against CUB in the same run.
#   bench/tune-cuda.sh "NAME:-DPRISM_CUDA_SCAN_THREADS_4=128 ..." ...
#   BENCH_ARGS="sort --type u32 --values 0,4 --n 2^28" bench/tune-cuda.sh ...
#   BENCH_ARGS="histogram --type u8,u32 --bins 256,1024 --dist uniform,one-bin
#     --n 2^28,2^30 --backend cuda" bench/tune-cuda.sh ...
# Each argument names a variant and the -D flags it adds (see
# backend_cuda/tuning.cuh for the knobs: PRISM_CUDA_SCAN_*, PRISM_CUDA_SORT_*,
# PRISM_CUDA_HIST_*, PRISM_CUDA_SELECT_*, PRISM_CUDA_SEG_*).
# BENCH_ARGS picks what to time (default: the scan). Output: one table per
# variant.
set -uo pipefail
cd "$(dirname "$0")/.."
arch=${ARCH:-90}
bench_args=${BENCH_ARGS:-"scan --backend cuda --type i32,f32,u64 --n 2^24,2^28 --reps 15"}
pids=()
for spec in "$@"; do
  name=${spec%%:*} flags=${spec#*:}
  ( cmake -S . -B "build-tune/$name" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES="$arch" -DPRISM_WITH_CUDA=ON \
      -DPRISM_WITH_OPENCL=OFF -DPRISM_BUILD_TESTS=OFF \
      "-DCMAKE_CUDA_FLAGS=$flags" >/dev/null &&
    cmake --build "build-tune/$name" -j 4 --target prism-bench >/dev/null ) \
    >"build-tune-$name.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || echo "a build failed"; done
for spec in "$@"; do
  name=${spec%%:*}
  echo "== $name: ${spec#*:}"
  # shellcheck disable=SC2086
  "build-tune/$name/bench/prism-bench" $bench_args | grep -E "^(cuda|cub) "
done
