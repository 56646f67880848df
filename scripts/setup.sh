# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Shared by scripts/bench-quick, scripts/test and the other scripts
# (sourced, not run): install the Debian packages prism needs when they are
# missing, then configure and build into $PRISM_BUILD_DIR (default: build/).
#
# Environment:
#   PRISM_BUILD_DIR    build tree (default build)
#   PRISM_WITH_CUDA    AUTO, ON or OFF: the CUDA backend (and the bench's CUB
#                      references). Unset: built only where a CUDA device can
#                      run it (nvidia-smi -L lists a GPU, or /dev/nvidia0
#                      exists) and nvcc is found; otherwise OFF, since its
#                      compile takes tens of minutes on a small machine.
#   PRISM_CMAKE_ARGS   extra arguments for the CMake configure step; a
#                      -DPRISM_WITH_CUDA=... there wins over the above
#   PRISM_EXTRA_PACKAGES more Debian packages the caller needs (CI's clang)
#   PRISM_NO_INSTALL=1 never install packages; only name the missing ones
#
# A caller may set, before sourcing: prism_targets (an array of CMake
# targets to build; default everything) and prism_what (what they are, for
# the line that says what is built).
set -euo pipefail

prism_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${PRISM_BUILD_DIR:-$prism_root/build}

packages=(cmake make gcc pkg-config ocl-icd-opencl-dev opencl-c-headers
          pocl-opencl-icd libcriterion-dev)
# shellcheck disable=SC2206
packages+=(${PRISM_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${PRISM_NO_INSTALL:-0}" = 1 ]; then
    echo "prism needs these Debian packages: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null; then
      sudo="sudo"
    else
      echo "prism needs these Debian packages (run as root to install):" \
           "${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

# nvcc is often installed outside PATH; the CUDA backend builds when found.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# ---- Which backends: CUDA only where something can run it, unless asked ---
# The last -DPRISM_WITH_CUDA in PRISM_CMAKE_ARGS, else $PRISM_WITH_CUDA,
# else the rule: a CUDA device here (and nvcc) or OFF.
prism_cmake_value() { # NAME: the last -DNAME[:TYPE]=VALUE in PRISM_CMAKE_ARGS
  local arg value=""
  # shellcheck disable=SC2086
  for arg in ${PRISM_CMAKE_ARGS:-}; do
    if [[ $arg =~ ^-D$1(:[A-Za-z]+)?=(.*)$ ]]; then
      value=${BASH_REMATCH[2]}
    fi
  done
  printf '%s' "$value"
}
cuda_device=""
if command -v nvidia-smi >/dev/null; then
  cuda_device=$(nvidia-smi -L 2>/dev/null | sed -n 's/^GPU [0-9]*: \([^(]*[^ (]\).*/\1/p;q')
fi
if [ -z "$cuda_device" ] && [ -e /dev/nvidia0 ]; then
  cuda_device=/dev/nvidia0
fi
have_nvcc=""
command -v nvcc >/dev/null && have_nvcc=1

with_cuda=$(prism_cmake_value PRISM_WITH_CUDA)
if [ -n "$with_cuda" ]; then
  why="-DPRISM_WITH_CUDA=$with_cuda in PRISM_CMAKE_ARGS"
elif [ -n "${PRISM_WITH_CUDA:-}" ]; then
  with_cuda=$PRISM_WITH_CUDA why="PRISM_WITH_CUDA=$with_cuda"
elif [ -n "$cuda_device" ]; then
  with_cuda=AUTO why="CUDA device: $cuda_device"
else
  with_cuda=OFF why="no CUDA device here; PRISM_WITH_CUDA=ON builds CUDA too"
fi
case ${with_cuda^^} in
  OFF | 0 | NO | FALSE | N) cuda_built="" ;;
  ON | 1 | YES | TRUE | Y) cuda_built=1 ;;
  *) cuda_built=$have_nvcc ;; # AUTO: as CMake decides
esac
if [ -n "$cuda_built" ] && [ -z "$have_nvcc" ]; then
  why="$why; but no nvcc on PATH or in /usr/local/cuda/bin"
elif [ -n "$cuda_built" ] && [ -z "$cuda_device" ]; then
  why="$why; no CUDA device here to run it"
elif [ -z "$cuda_built" ] && [ -n "$cuda_device" ] && [ -z "$have_nvcc" ]; then
  why="$why, but no nvcc on PATH or in /usr/local/cuda/bin"
fi
case $(prism_cmake_value PRISM_WITH_OPENCL | tr '[:lower:]' '[:upper:]') in
  OFF | 0 | NO | FALSE | N) opencl_built="" ;;
  *) opencl_built=1 ;;
esac
if [ -n "$cuda_built" ] && [ -n "$opencl_built" ]; then
  backends="the CUDA and OpenCL backends"
elif [ -n "$cuda_built" ]; then
  backends="the CUDA backend only"
else
  backends="the OpenCL backend only"
fi
# shellcheck disable=SC2154 # prism_targets, prism_what: set by the caller
if [ -n "${prism_targets+set}" ]; then
  what=${prism_what:-${prism_targets[*]}}
else
  prism_targets=()
  what=${prism_what:-prism}
fi
echo "prism: building $what with $backends in ${build_dir#"$PWD"/} ($why)"

# PoCL caches compiled kernels; it needs a writable folder.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build_dir/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"

# The configure output goes to a log; on failure, its errors and its end.
mkdir -p "$build_dir"
configure_log=$build_dir/configure.log
# shellcheck disable=SC2086
if ! cmake -S "$prism_root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DPRISM_WITH_CUDA="$with_cuda" ${PRISM_CMAKE_ARGS:-} \
    >"$configure_log" 2>&1; then
  echo "prism: configuring failed; from $configure_log:" >&2
  if grep -q "CMake Error" "$configure_log"; then
    grep -A6 "CMake Error" "$configure_log" | head -40 >&2
  else
    tail -25 "$configure_log" >&2
  fi
  exit 1
fi
build_args=()
for t in "${prism_targets[@]}"; do
  build_args+=(--target "$t")
done
cmake --build "$build_dir" -j "$(nproc)" "${build_args[@]}"
