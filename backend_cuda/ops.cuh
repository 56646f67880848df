/* SPDX-License-Identifier: MIT */
/*
 * Operators of reduce and scan, per element type: identity and combine.
 *
 * prism.h's rules, which make every operator but float SUM exact and
 * independent of the order in which partials meet:
 * - integer SUM wraps modulo 2^bits; signed types add as unsigned, since
 *   signed overflow is undefined behaviour in C++;
 * - MIN/MAX: any NaN operand gives NaN, and -0.0 orders below +0.0.
 */
#ifndef PRISM_BACKEND_CUDA_OPS_CUH
#define PRISM_BACKEND_CUDA_OPS_CUH

#include "prism.h"

#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {

/* The signed integer with the float's width, for order_key. */
template <class F> struct FloatBits;
template <> struct FloatBits<float> { using type = int32_t; };
template <> struct FloatBits<double> { using type = int64_t; };

/* A signed integer that orders floats totally, -0.0 below +0.0: negative
 * floats have their magnitude bits flipped, so a larger magnitude gives a
 * smaller key. Only used on non-NaN values. */
template <class F>
__device__ __forceinline__ typename FloatBits<F>::type order_key(F x) {
  using I = typename FloatBits<F>::type;
  I bits;
  memcpy(&bits, &x, sizeof bits);
  const I magnitude = cuda::std::numeric_limits<I>::max();
  return bits ^ ((bits >> (sizeof(I) * 8 - 1)) & magnitude);
}

/* Returns a if a orders before b (or ties), else b. A canonical quiet NaN
 * when either is NaN, so the result does not depend on the order. */
template <class F, bool MIN>
__device__ __forceinline__ F float_select(F a, F b) {
  auto ka = order_key(a), kb = order_key(b);
  F pick = (MIN ? ka <= kb : ka >= kb) ? a : b;
  return (isnan(a) || isnan(b)) ? cuda::std::numeric_limits<F>::quiet_NaN()
                                : pick;
}

template <class T, prism_op OP> struct Op;

template <class T> struct Op<T, PRISM_SUM> {
  static __host__ __device__ __forceinline__ T identity() {
    return T(0);
  }
  static __device__ __forceinline__ T apply(T a, T b) {
    if constexpr (cuda::std::is_integral_v<T>) {
      using U = cuda::std::make_unsigned_t<T>;
      return T(U(a) + U(b));
    } else {
      return a + b;
    }
  }
};

template <class T> struct Op<T, PRISM_MIN> {
  static __host__ __device__ __forceinline__ T identity() {
    if constexpr (cuda::std::is_floating_point_v<T>)
      return cuda::std::numeric_limits<T>::infinity();
    else
      return cuda::std::numeric_limits<T>::max();
  }
  static __device__ __forceinline__ T apply(T a, T b) {
    if constexpr (cuda::std::is_floating_point_v<T>)
      return float_select<T, true>(a, b);
    else
      return a < b ? a : b;
  }
};

template <class T> struct Op<T, PRISM_MAX> {
  static __host__ __device__ __forceinline__ T identity() {
    if constexpr (cuda::std::is_floating_point_v<T>)
      return -cuda::std::numeric_limits<T>::infinity();
    else
      return cuda::std::numeric_limits<T>::lowest();
  }
  static __device__ __forceinline__ T apply(T a, T b) {
    if constexpr (cuda::std::is_floating_point_v<T>)
      return float_select<T, false>(a, b);
    else
      return a > b ? a : b;
  }
};

/* Sixteen bytes of T: the unit of vectorised global loads and stores. The
 * alignment makes the compiler emit one 128-bit access for a copy. */
template <class T> struct alignas(16) Vec16 {
  static constexpr int N = 16 / int(sizeof(T));
  T v[N];
};

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_OPS_CUH */
