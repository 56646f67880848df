/* SPDX-License-Identifier: MIT */
/*
 * What the histogram files share: how a sample becomes a bin (BinMap and
 * item_bins, the same arithmetic in every kernel, exactly as core mapped
 * it: core/backend.h, prism__histogram_args), how a call's counts and
 * edges are staged, and how many slices the input is cut into; and the
 * entries of the two strategies, histogram_bytes.cu (1-byte samples) and
 * histogram_blocks.cu (wider ones), between which histogram.cu's entry
 * point chooses.
 */
#ifndef PRISM_BACKEND_CUDA_HISTOGRAM_CUH
#define PRISM_BACKEND_CUDA_HISTOGRAM_CUH

#include "block.cuh"
#include "cuda_internal.h"
#include "ops.cuh"
#include "tuning.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {

prism_status run_histogram_bytes(prism_context *ctx, prism__cuda_ctx *c,
                                 const prism__histogram_args *args);
prism_status run_histogram_blocks(prism_context *ctx, prism__cuda_ctx *c,
                                  const prism__histogram_args *args);

namespace {

/* How a sample becomes a bin (host-chosen per call; core/backend.h says
 * what each computes). */
enum BinMode {
  BIN_SHIFT,     /* (x - lower) >> shift, counted when x - lower <= span */
  BIN_SHIFT_ALL, /* the same, the bounds covering the type: all counted */
  BIN_DIVIDE,    /* (x - lower) / width, counted when x - lower <= span */
  BIN_SCALE,     /* floor((x - lower) * bins / (span + 1)), exactly */
  BIN_FLOAT,     /* (x - lower) * scale, truncated, capped at bins - 1 */
  BIN_SEARCH     /* binary search over the edges */
};

/* A sample that is not counted (outside the bounds or the block's range
 * of bins, NaN, past n). Above every bin: bins <= 2^31. */
constexpr unsigned NO_BIN = 0xffffffffu;

/* Integer samples as the unsigned type their differences are taken in. */
template <class T>
using HistUnsigned =
    cuda::std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <class T> struct BinMap {
  using U = HistUnsigned<T>;
  int mode;
  unsigned bins;
  T lower, upper, scale; /* lower: integers and floats; the rest floats */
  U span, width;
  unsigned shift;
  unsigned long long range; /* BIN_SCALE: span + 1, 0 standing for 2^64 */
  const T *edges;           /* BIN_SEARCH: the (block's) edges */
};

/* floor(d * bins / range) for 64-bit d, exactly: the product takes 96
 * bits. The quotient is below bins <= 2^31, so a restoring division over
 * the product's low 32 bits finds it, the remainder starting as the
 * product shifted right by 32 (below range, since the quotient is). */
__device__ __forceinline__ unsigned scale_bin64(uint64_t d, unsigned bins,
                                                unsigned long long range) {
  const uint64_t lo = d * bins, hi = __umul64hi(d, bins);
  if (range == 0) // span + 1 = 2^64
    return unsigned(hi);
  uint64_t r = (hi << 32) | (lo >> 32);
  unsigned q = 0;
#pragma unroll 4
  for (int i = 31; i >= 0; --i) {
    const uint64_t carry = r >> 63;
    r = (r << 1) | ((lo >> i) & 1u);
    q <<= 1;
    if (carry || r >= range) {
      r -= range;
      q |= 1u;
    }
  }
  return q;
}

template <class T>
__device__ __forceinline__ unsigned float_bin(const BinMap<T> &m, T x) {
  if (!(m.lower <= x && x < m.upper)) // NaN fails too
    return NO_BIN;
  unsigned b;
  if constexpr (sizeof(T) == 4)
    b = __float2uint_rz(__fmul_rn(__fsub_rn(x, m.lower), m.scale));
  else
    b = __double2uint_rz(__dmul_rn(__dsub_rn(x, m.lower), m.scale));
  return min(b, m.bins - 1);
}

/* The bin of x among count bins with edges e[0..count]: the last edge at
 * or below x, by a binary search of a fixed number of steps. */
template <class T>
__device__ __forceinline__ unsigned search_bin(const T *e, unsigned count,
                                               T x) {
  if (!(e[0] <= x && x < e[count])) // NaN fails too
    return NO_BIN;
  unsigned lo = 0, len = count; // e[lo] <= x < e[lo + len]
  while (len > 1) {
    const unsigned step = len >> 1;
    lo = e[lo + step] <= x ? lo + step : lo;
    len -= step;
  }
  return lo;
}

/* The bins of GROUP samples, relative to the block's range of bins
 * [first, first + count): NO_BIN where not counted here. BIN_SEARCH
 * searches m.edges, which hold the range's count + 1 edges. */
template <class T, int GROUP>
__device__ __forceinline__ void
item_bins(const BinMap<T> &m, const T (&x)[GROUP], unsigned first,
          unsigned count, unsigned (&bin)[GROUP]) {
  using U = HistUnsigned<T>;
  if (m.mode == BIN_SEARCH) {
#pragma unroll
    for (int j = 0; j < GROUP; ++j)
      bin[j] = search_bin(m.edges, count, x[j]);
    return;
  }
  if constexpr (cuda::std::is_floating_point_v<T>) {
#pragma unroll
    for (int j = 0; j < GROUP; ++j)
      bin[j] = float_bin(m, x[j]);
  } else {
    const U lower = U(m.lower);
    switch (m.mode) {
    case BIN_SHIFT_ALL:
#pragma unroll
      for (int j = 0; j < GROUP; ++j)
        bin[j] = unsigned((U(x[j]) - lower) >> m.shift);
      break;
    case BIN_SHIFT:
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        bin[j] = d <= m.span ? unsigned(d >> m.shift) : NO_BIN;
      }
      break;
    case BIN_DIVIDE:
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        bin[j] = d <= m.span ? unsigned(d / m.width) : NO_BIN;
      }
      break;
    default: // BIN_SCALE
#pragma unroll
      for (int j = 0; j < GROUP; ++j) {
        const U d = U(x[j]) - lower;
        if (d > m.span)
          bin[j] = NO_BIN;
        else if constexpr (sizeof(T) == 8)
          bin[j] = scale_bin64(d, m.bins, m.range);
        else
          bin[j] = unsigned(uint64_t(d) * m.bins / m.range);
      }
      break;
    }
  }
  // To the block's range; NO_BIN - first stays at or above count.
#pragma unroll
  for (int j = 0; j < GROUP; ++j) {
    const unsigned rel = bin[j] - first;
    bin[j] = rel < count ? rel : NO_BIN;
  }
}

/* The sample type's member of a prism_value. */
template <class T> T value_of(const prism_value &v) {
  T x;
  memcpy(&x, &v, sizeof x);
  return x;
}

template <class T> BinMap<T> bin_map(const prism__histogram_args *a) {
  using U = HistUnsigned<T>;
  BinMap<T> m;
  memset(&m, 0, sizeof m);
  m.bins = unsigned(a->bins);
  if (a->ranged) {
    m.mode = BIN_SEARCH;
    return m;
  }
  m.lower = value_of<T>(a->lower);
  if constexpr (cuda::std::is_floating_point_v<T>) {
    m.mode = BIN_FLOAT;
    m.upper = value_of<T>(a->upper);
    m.scale = value_of<T>(a->scale);
  } else {
    m.span = U(a->span);
    const uint64_t w = a->width;
    // A width the unsigned type cannot hold (2^32 for 32-bit samples: one
    // bin over the whole type) takes the general path.
    if (w != 0 && w <= uint64_t(U(~U(0)))) {
      m.width = U(w);
      if ((w & (w - 1)) == 0) {
        while ((uint64_t(1) << m.shift) < w)
          ++m.shift;
        // Bounds covering the type: for bytes, span 255 means [0, 256).
        const bool all = a->span == uint64_t(U(~U(0))) ||
                         (sizeof(T) == 1 && a->span == 0xffu);
        m.mode = all ? BIN_SHIFT_ALL : BIN_SHIFT;
      } else {
        m.mode = BIN_DIVIDE;
      }
    } else {
      m.mode = BIN_SCALE;
      m.range = a->span + 1; // wraps to 0 for 2^64
    }
  }
  return m;
}

/*
 * histogram_head: the samples before the first 16-byte boundary of a
 * view's samples (at most 15 bytes, 3 or 1 samples), which the vectorised
 * kernels cannot load: thread t counts sample t straight into counts with
 * a global atomic (zeroed by the host; BIN_SEARCH searches every edge, in
 * global memory). One block of HEAD_THREADS, launched only for such views.
 */
constexpr int HEAD_THREADS = VECTOR_BYTES;

template <class T>
__global__ void __launch_bounds__(HEAD_THREADS)
    histogram_head(const T *samples, unsigned head, BinMap<T> map, void *counts,
                   int wide_counts) {
  if (threadIdx.x >= head)
    return;
  const T x[1] = {samples[threadIdx.x]};
  unsigned bin[1];
  item_bins(map, x, 0, map.bins, bin);
  if (bin[0] == NO_BIN)
    return;
  if (wide_counts)
    atomicAdd(static_cast<unsigned long long *>(counts) + bin[0], 1ull);
  else
    atomicAdd(static_cast<unsigned *>(counts) + bin[0], 1u);
}

/* The vectorised kernels load 16-byte vectors from the start of samples,
 * so they need it on a 16-byte boundary: a whole buffer is, a view need
 * only be element-aligned. For a view that is not, histogram_head counts
 * the samples before the first boundary and *samples and *n are moved past
 * them, so the kernels themselves stay as they are for the aligned case.
 * After stage_call (counts zeroed). */
template <class T>
prism_status split_head(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__histogram_args *args, const BinMap<T> &map,
                        const T **samples, size_t *n) {
  *samples = mem_ptr<const T>(args->samples);
  *n = args->n;
  size_t head = (VECTOR_BYTES - uintptr_t(*samples) % VECTOR_BYTES) %
                VECTOR_BYTES / sizeof(T);
  if (head > *n)
    head = *n;
  if (head == 0)
    return PRISM_OK;
  histogram_head<T><<<1, HEAD_THREADS, 0, c->stream>>>(
      *samples, unsigned(head), map, prism__cuda_ptr(args->counts),
      args->counter_type == PRISM_U64);
  *samples += head;
  *n -= head;
  return prism__cuda_check_launch(ctx, "histogram_head");
}

/* A call's map into map; counts zeroed on the stream; a ranged histogram's
 * edges copied into scratch for map (cudaMemcpyAsync from pageable memory
 * returns once the edges are staged, so the caller may reuse them at
 * once). */
template <class T>
prism_status stage_call(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__histogram_args *args, BinMap<T> &map) {
  map = bin_map<T>(args);
  const size_t counter_bytes = args->counter_type == PRISM_U64 ? 8 : 4;
  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, prism__cuda_ptr(args->counts), 0,
                 args->bins * counter_bytes, c->stream);
  if (args->ranged) {
    const size_t bytes = (args->bins + 1) * sizeof(T);
    void *scratch = NULL;
    prism_status st = prism__scratch(ctx, bytes, &scratch);
    if (st != PRISM_OK)
      return st;
    PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, scratch, args->edges, bytes,
                   cudaMemcpyHostToDevice, c->stream);
    map.edges = static_cast<const T *>(scratch);
  }
  return PRISM_OK;
}

} // namespace
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_HISTOGRAM_CUH */
