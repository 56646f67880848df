/* SPDX-License-Identifier: MIT */
/*
 * CUB reference, merge: DeviceMerge::Merge{Keys,Pairs} of the input's two
 * sorted runs (its first j.split keys, then the rest) with a comparison of
 * the keys' order-preserving images (core/key_order.h), complemented for
 * descending order: the order prism merges in, floats in IEEE-754 total
 * order. Out of place, so every call merges the same input.
 */
#include "cub_ops.cuh"

#include "key_order.h"

#include <cuda/std/type_traits>

namespace cub_bench {
namespace {

/* The image of a key's bits, by its type (as the sort's SortKey). */
template <typename T> struct image_of;
template <> struct image_of<uint32_t> {
  __device__ static uint32_t of(uint32_t b) {
    return PRISM_KEY_IMAGE_U32(b);
  }
};
template <> struct image_of<int32_t> {
  __device__ static uint32_t of(uint32_t b) {
    return PRISM_KEY_IMAGE_I32(b);
  }
};
template <> struct image_of<float> {
  __device__ static uint32_t of(uint32_t b) {
    return PRISM_KEY_IMAGE_F32(b);
  }
};
template <> struct image_of<uint64_t> {
  __device__ static uint64_t of(uint64_t b) {
    return PRISM_KEY_IMAGE_U64(b);
  }
};
template <> struct image_of<int64_t> {
  __device__ static uint64_t of(uint64_t b) {
    return PRISM_KEY_IMAGE_I64(b);
  }
};
template <> struct image_of<double> {
  __device__ static uint64_t of(uint64_t b) {
    return PRISM_KEY_IMAGE_F64(b);
  }
};

/* Keys travel as their raw bits, compared by image ^ flip. */
template <typename T> struct image_less {
  using B = cuda::std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  B flip;
  __device__ bool operator()(B x, B y) const {
    return B(image_of<T>::of(x) ^ flip) < B(image_of<T>::of(y) ^ flip);
  }
};

template <typename T, typename V> cudaError_t launch_merge_pairs(cub_job &j) {
  using B = typename image_less<T>::B;
  const B *keys = static_cast<const B *>(j.in);
  const V *values = static_cast<const V *>(j.values_in);
  const image_less<T> less{j.descending ? B(~B(0)) : B(0)};
  const int64_t na = static_cast<int64_t>(j.split);
  const int64_t nb = static_cast<int64_t>(j.n - j.split);
  return cub::DeviceMerge::MergePairs(
      j.temp, j.temp_bytes, keys, values, na, keys + na, values + na, nb,
      static_cast<B *>(j.out), static_cast<V *>(j.values_out), less, j.stream);
}

} // namespace

template <typename T> cudaError_t launch_merge(cub_job &j) {
  using B = typename image_less<T>::B;
  if (j.value_size == 4)
    return launch_merge_pairs<T, uint32_t>(j);
  if (j.value_size == 8)
    return launch_merge_pairs<T, uint64_t>(j);
  const B *keys = static_cast<const B *>(j.in);
  const image_less<T> less{j.descending ? B(~B(0)) : B(0)};
  const int64_t na = static_cast<int64_t>(j.split);
  const int64_t nb = static_cast<int64_t>(j.n - j.split);
  return cub::DeviceMerge::MergeKeys(j.temp, j.temp_bytes, keys, na, keys + na,
                                     nb, static_cast<B *>(j.out), less,
                                     j.stream);
}

CUB_JOB_INSTANCES(launch_merge)

} // namespace cub_bench
