/* SPDX-License-Identifier: MIT */
/*
 * Keys as the radix sort sees them. A key travels as its raw bits (K =
 * uint32_t or uint64_t), so NaN payloads and -0.0 come out exactly as they
 * went in; only digits are taken from its order-preserving image
 * (core/key_order.h, the one definition shared with OpenCL and the tests),
 * complemented for descending order. Floats are never compared as floats.
 */
#ifndef PRISM_BACKEND_CUDA_SORT_KEYS_CUH
#define PRISM_BACKEND_CUDA_SORT_KEYS_CUH

#include "key_order.h"
#include "prism.h"
#include "tuning.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>

namespace prism_cuda {

/* Per key type: its bits and their image. */
template <prism_type TYPE> struct SortKey;

template <> struct SortKey<PRISM_U32> {
  using Bits = uint32_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_U32(b);
  }
};
template <> struct SortKey<PRISM_I32> {
  using Bits = uint32_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_I32(b);
  }
};
template <> struct SortKey<PRISM_F32> {
  using Bits = uint32_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_F32(b);
  }
};
template <> struct SortKey<PRISM_U64> {
  using Bits = uint64_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_U64(b);
  }
};
template <> struct SortKey<PRISM_I64> {
  using Bits = uint64_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_I64(b);
  }
};
template <> struct SortKey<PRISM_F64> {
  using Bits = uint64_t;
  static __device__ __forceinline__ Bits image(Bits b) {
    return PRISM_KEY_IMAGE_F64(b);
  }
};

/* The value type of a keys-only sort: never loaded or stored. */
struct NoValues {};

/* The value type of a SortTag's value size (dispatch.cuh): values move
 * as raw bits. */
template <int VALUE_BYTES> struct SortValue { using type = NoValues; };
template <> struct SortValue<4> { using type = uint32_t; };
template <> struct SortValue<8> { using type = uint64_t; };

template <class V>
constexpr bool HAS_VALUES = !cuda::std::is_same_v<V, NoValues>;

/* The digit one pass sorts by: bits [shift, shift + width) of the image,
 * after xor with flip (all ones for descending order, else 0). width is
 * RADIX_BITS except for a narrower last digit. */
template <class KT> struct DigitOf {
  using K = typename KT::Bits;
  K flip;
  unsigned shift, width;

  __device__ __forceinline__ unsigned operator()(K key) const {
    const K image = K(KT::image(key) ^ flip);
    return unsigned(PRISM_KEY_DIGIT(image, shift, width));
  }
};

/* The digit of pass p over bits [begin_bit, end_bit). */
template <class KT>
__host__ __device__ __forceinline__ DigitOf<KT>
pass_digit(typename KT::Bits flip, unsigned begin_bit, unsigned end_bit,
           unsigned pass) {
  const unsigned shift = begin_bit + pass * unsigned(RADIX_BITS);
  const unsigned left = end_bit - shift;
  return DigitOf<KT>{flip, shift,
                     left < unsigned(RADIX_BITS) ? left : unsigned(RADIX_BITS)};
}

/* Passes over bits [begin_bit, end_bit): the last digit may be narrower. */
__host__ __device__ __forceinline__ unsigned sort_passes(unsigned begin_bit,
                                                         unsigned end_bit) {
  return (end_bit - begin_bit + unsigned(RADIX_BITS) - 1) /
         unsigned(RADIX_BITS);
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SORT_KEYS_CUH */
