# Shared by scripts/bench-quick and scripts/test (sourced, not run): install
# the Debian packages prism needs when they are missing, then configure and
# build into $PRISM_BUILD_DIR (default: build/).
#
# Environment:
#   PRISM_BUILD_DIR    build tree (default build)
#   PRISM_CMAKE_ARGS   extra arguments for the CMake configure step
#   PRISM_EXTRA_PACKAGES more Debian packages the caller needs (CI's clang)
#   PRISM_NO_INSTALL=1 never install packages; only name the missing ones
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

# PoCL caches compiled kernels; it needs a writable folder.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build_dir/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"

# shellcheck disable=SC2086
cmake -S "$prism_root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  ${PRISM_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
