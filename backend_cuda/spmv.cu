/* SPDX-License-Identifier: MIT */
/*
 * SpMV, y = alpha * A * x + beta * y, on the merge-path partition core
 * planned (core/backend.h, prism__spmv_args; Merrill & Garland, SC'16).
 *
 * spmv_tiles: one block per tile of SPMV_THREADS x ITEMS merge items.
 *   1. The tile's row ends (relative to its first entry) and its products
 *      a_z * x[col_z] go to shared memory, coalesced: every entry is read
 *      once, x gathered once per entry.
 *   2. Each thread finds its own ITEMS-item stretch of the tile's merge
 *      path by a binary search in shared memory and walks it: an entry adds
 *      its product, a row end finishes the row. Rows a thread both begins
 *      and ends are written at once.
 *   3. The first row each thread ends may have begun in earlier threads:
 *      an exclusive block scan of (open row, partial sum) pairs, keyed by
 *      row (a fixed shuffle tree: the same bits every run), gives each
 *      thread what the threads before it summed of that row.
 *   4. The tile's first row, when it began in an earlier tile, goes to the
 *      tile's head slot instead of y; what the tile summed of the row open
 *      at its end (the scan's aggregate) to its carry slot.
 * spmv_fix_short / spmv_fix_long: the rows split between tiles, each
 *   finished from its slots: one thread per short one (slots added in
 *   order), one block per long one (a fixed tree), so a row of 10^7 entries
 *   among rows of 2 costs one block's read of its few thousand slots.
 *
 * Deterministic: nothing depends on timing, no atomics.
 */
#include "cuda_internal.h"
#include "tuning.cuh"

#include <stdint.h>

namespace prism_cuda {
namespace {

template <class T> struct SpmvPolicy {
  static constexpr int THREADS = SPMV_THREADS;
  static constexpr int ITEMS = sizeof(T) == 4 ? SPMV_ITEMS_4 : SPMV_ITEMS_8;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int WARPS = THREADS / WARP_THREADS;
};

template <class T> __device__ __forceinline__ T neg_zero() {
  return -T(0);
}

/* y[row] = alpha * s + beta * y[row]; y is not read when beta is 0. */
template <class T>
__device__ __forceinline__ void finish_row(T *y, uint64_t row, T s, T alpha,
                                           T beta) {
  T v = alpha * s;
  if (beta != T(0))
    v = v + beta * y[row];
  y[row] = v;
}

/* (key, value) pairs scanned by key: a . b = (b.key, a.key == b.key ?
 * a.value + b.value : b.value). With keys that never decrease along the
 * threads, a thread's exclusive prefix holds what the threads before it
 * summed of the row open at its start. */
template <class T> struct KeyedSum {
  uint32_t key;
  T value;
};

template <class T>
__device__ __forceinline__ KeyedSum<T> keyed_combine(KeyedSum<T> a,
                                                     KeyedSum<T> b) {
  return {b.key, a.key == b.key ? a.value + b.value : b.value};
}

template <class T>
__device__ __forceinline__ KeyedSum<T> warp_inclusive(KeyedSum<T> p, int lane) {
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset <<= 1) {
    KeyedSum<T> left;
    left.key = __shfl_up_sync(0xffffffffu, p.key, offset);
    left.value = __shfl_up_sync(0xffffffffu, p.value, offset);
    if (lane >= offset)
      p = keyed_combine(left, p);
  }
  return p;
}

template <class T, int WARPS> struct TileScanStorage {
  KeyedSum<T> warp_total[WARPS];
};

/* Exclusive keyed scan over the block: *prefix gets the combination of the
 * threads before this one (valid for threads > 0), and every thread the
 * whole block's. */
template <class T, int WARPS>
__device__ __forceinline__ void
block_keyed_scan(KeyedSum<T> mine, KeyedSum<T> *prefix, KeyedSum<T> *total,
                 TileScanStorage<T, WARPS> &s) {
  const int lane = threadIdx.x % WARP_THREADS,
            warp = threadIdx.x / WARP_THREADS;
  KeyedSum<T> inc = warp_inclusive(mine, lane);
  KeyedSum<T> exc;
  exc.key = __shfl_up_sync(0xffffffffu, inc.key, 1);
  exc.value = __shfl_up_sync(0xffffffffu, inc.value, 1);
  if (lane == WARP_THREADS - 1)
    s.warp_total[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    KeyedSum<T> w = lane < WARPS ? s.warp_total[lane] : s.warp_total[WARPS - 1];
    w = warp_inclusive(w, lane);
    if (lane < WARPS)
      s.warp_total[lane] = w; /* inclusive over warps 0 .. lane */
  }
  __syncthreads();
  KeyedSum<T> p = exc;
  if (warp > 0) {
    const KeyedSum<T> before = s.warp_total[warp - 1];
    p = lane == 0 ? before : keyed_combine(before, exc);
  }
  *prefix = p;
  *total = s.warp_total[WARPS - 1];
}

template <class T> struct SpmvShared {
  using P = SpmvPolicy<T>;
  uint32_t row_end[P::TILE + 1]; /* relative to the tile's first entry */
  T product[P::TILE];
  TileScanStorage<T, P::WARPS> scan;
};

template <class T>
__global__ void __launch_bounds__(SpmvPolicy<T>::THREADS)
    spmv_tiles(const uint32_t *__restrict__ row_offsets,
               const uint32_t *__restrict__ cols, const T *__restrict__ values,
               const T *__restrict__ x, T *y,
               const uint64_t *__restrict__ coords, T *partials, T alpha,
               T beta) {
  using P = SpmvPolicy<T>;
  __shared__ SpmvShared<T> sh;
  const uint64_t t = blockIdx.x;
  const uint64_t head = coords[2 * t], z0 = coords[2 * t + 1];
  const uint64_t r0 = head & ~PRISM__SPMV_HEAD_SPLIT;
  const uint64_t r1 = coords[2 * t + 2] & ~PRISM__SPMV_HEAD_SPLIT;
  const uint64_t z1 = coords[2 * t + 3];
  const int nr = int(r1 - r0), nz = int(z1 - z0);
  /* The tile's first row began in an earlier tile: it is a split row. */
  const bool head_split = nr > 0 && (head & PRISM__SPMV_HEAD_SPLIT) != 0;

  /* nr, nz <= TILE: ITEMS strided rounds stage them, every load of a
   * round issued before the first is used (the gathers of x too), so a
   * thread keeps ITEMS loads in flight instead of one. The loads take no
   * branch: a round past nz reads entry nz - 1 again (a tile without
   * entries reads none), so no load waits behind another's test. */
  uint32_t col[P::ITEMS];
  T value[P::ITEMS], xs[P::ITEMS];
  if (nz > 0) {
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++) {
      const int i = min(int(threadIdx.x) + k * P::THREADS, nz - 1);
      col[k] = cols[z0 + i];
      value[k] = values[z0 + i];
    }
#pragma unroll
    for (int k = 0; k < P::ITEMS; k++)
      xs[k] = x[col[k]];
  }
#pragma unroll
  for (int k = 0; k < P::ITEMS; k++) {
    const int i = int(threadIdx.x) + k * P::THREADS;
    if (i < nr)
      sh.row_end[i] = row_offsets[r0 + 1 + i] - uint32_t(z0);
  }
  if (threadIdx.x == 0) {
    sh.row_end[nr] = uint32_t(nz); /* row r1 stays open */
    if (!head_split)
      partials[2 * t] = neg_zero<T>();
  }
#pragma unroll
  for (int k = 0; k < P::ITEMS; k++) {
    const int i = int(threadIdx.x) + k * P::THREADS;
    if (i < nz)
      sh.product[i] = value[k] * xs[k];
  }
  __syncthreads();

  /* This thread's stretch [d, d_end) of the tile's nr + nz items. */
  const int items = nr + nz;
  const int d = min(int(threadIdx.x) * P::ITEMS, items);
  const int d_end = min(d + P::ITEMS, items);
  int lo = max(d - nz, 0), hi = min(d, nr);
  while (lo < hi) { /* row ends before item d: row_end[i] + i < d */
    const int mid = (lo + hi) >> 1;
    if (int(sh.row_end[mid]) + mid < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  int ri = lo, zi = d - lo;

  T acc = T(0), first_sum = T(0);
  int first_row = -1;
#pragma unroll
  for (int k = 0; k < P::ITEMS; k++) {
    if (ri + zi < d_end) {
      if (int(sh.row_end[ri]) <= zi) { /* row ri ends here */
        if (first_row < 0) {
          first_row = ri;
          first_sum = acc;
        } else {
          finish_row(y, r0 + ri, acc, alpha, beta);
        }
        acc = T(0);
        ri++;
      } else {
        acc += sh.product[zi];
        zi++;
      }
    }
  }

  KeyedSum<T> prefix, total;
  block_keyed_scan<T, P::WARPS>(KeyedSum<T>{uint32_t(ri), acc}, &prefix, &total,
                                sh.scan);
  if (first_row >= 0) {
    T s = first_sum;
    if (threadIdx.x > 0 && prefix.key == uint32_t(first_row))
      s = prefix.value + first_sum;
    if (first_row == 0 && head_split)
      partials[2 * t] = s;
    else
      finish_row(y, r0 + first_row, s, alpha, beta);
  }
  if (threadIdx.x == P::THREADS - 1)
    partials[2 * t + 1] = total.value;
}

/* One thread per short split row: its slots added in order. */
template <class T>
__global__ void __launch_bounds__(SPMV_FIX_THREADS)
    spmv_fix_short(const uint64_t *__restrict__ split, uint64_t begin,
                   uint64_t end, const T *__restrict__ partials, T *y, T alpha,
                   T beta) {
  const uint64_t i = begin + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= end)
    return;
  const uint64_t row = split[3 * i], first = split[3 * i + 1],
                 last = split[3 * i + 2];
  T s = partials[first];
  for (uint64_t j = first + 1; j <= last; j++)
    s += partials[j];
  finish_row(y, row, s, alpha, beta);
}

/* One block per long split row: each thread adds the slots first + tid,
 * first + tid + THREADS, ... in order, then a fixed tree over the threads
 * (warp shuffles, then the warps' sums in order). */
template <class T>
__global__ void __launch_bounds__(SPMV_FIX_THREADS)
    spmv_fix_long(const uint64_t *__restrict__ split,
                  const T *__restrict__ partials, T *y, T alpha, T beta) {
  constexpr int WARPS = SPMV_FIX_THREADS / WARP_THREADS;
  __shared__ T warp_sum[WARPS];
  const uint64_t i = blockIdx.x;
  const uint64_t row = split[3 * i], first = split[3 * i + 1],
                 last = split[3 * i + 2];
  T s = neg_zero<T>();
  for (uint64_t j = first + threadIdx.x; j <= last; j += SPMV_FIX_THREADS)
    s += partials[j];
#pragma unroll
  for (int offset = WARP_THREADS / 2; offset > 0; offset >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, offset);
  if (threadIdx.x % WARP_THREADS == 0)
    warp_sum[threadIdx.x / WARP_THREADS] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total = warp_sum[0];
    for (int w = 1; w < WARPS; w++)
      total += warp_sum[w];
    finish_row(y, row, total, alpha, beta);
  }
}

template <class T>
prism_status spmv_typed(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__spmv_args *a) {
  const T alpha = T(a->alpha), beta = T(a->beta);
  const uint64_t *coords = mem_ptr<const uint64_t>(a->coords);
  const uint64_t *split = mem_ptr<const uint64_t>(a->split_rows);
  T *partials = mem_ptr<T>(a->partials);
  T *y = mem_ptr<T>(a->y);
  spmv_tiles<T><<<unsigned(a->tiles), SpmvPolicy<T>::THREADS, 0, c->stream>>>(
      mem_ptr<const uint32_t>(a->row_offsets),
      mem_ptr<const uint32_t>(a->col_indices), mem_ptr<const T>(a->values),
      mem_ptr<const T>(a->x), y, coords, partials, alpha, beta);
  prism_status st = prism__cuda_check_launch(ctx, "spmv_tiles");
  if (st != PRISM_OK)
    return st;
  if (a->long_splits > 0) {
    spmv_fix_long<T>
        <<<unsigned(a->long_splits), SPMV_FIX_THREADS, 0, c->stream>>>(
            split, partials, y, alpha, beta);
    if ((st = prism__cuda_check_launch(ctx, "spmv_fix_long")) != PRISM_OK)
      return st;
  }
  const uint64_t shorts = a->splits - a->long_splits;
  if (shorts > 0) {
    const uint64_t blocks = (shorts + SPMV_FIX_THREADS - 1) / SPMV_FIX_THREADS;
    spmv_fix_short<T><<<unsigned(blocks), SPMV_FIX_THREADS, 0, c->stream>>>(
        split, a->long_splits, a->splits, partials, y, alpha, beta);
    st = prism__cuda_check_launch(ctx, "spmv_fix_short");
  }
  return st;
}

} // namespace
} // namespace prism_cuda

extern "C" size_t prism__cuda_spmv_tile_items(prism_context *ctx,
                                              prism_type type) {
  (void)ctx;
  return type == PRISM_F64 ? size_t(prism_cuda::SpmvPolicy<double>::TILE)
                           : size_t(prism_cuda::SpmvPolicy<float>::TILE);
}

extern "C" prism_status prism__cuda_spmv(prism_context *ctx,
                                         const prism__spmv_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->type == PRISM_F64)
    return prism_cuda::spmv_typed<double>(ctx, c, args);
  return prism_cuda::spmv_typed<float>(ctx, c, args);
}
