/* SPDX-License-Identifier: MIT */
/*
 * Warp and block collectives: reduce and exclusive scan over one value per
 * thread, with an Op from ops.cuh. Warps exchange through shuffles; blocks
 * meet through one shared slot per warp.
 */
#ifndef PRISM_BACKEND_CUDA_BLOCK_CUH
#define PRISM_BACKEND_CUDA_BLOCK_CUH

#include "tuning.cuh"

namespace prism_cuda {

constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ int lane_id() {
  return int(threadIdx.x) & (WARP_THREADS - 1);
}

__device__ __forceinline__ int warp_id() {
  return int(threadIdx.x) / WARP_THREADS;
}

/* Butterfly reduction: every lane ends with the total, and with the same
 * bits, since partner lanes combine the same two operands and every Op is
 * commutative. */
template <class Op, class T> __device__ __forceinline__ T warp_reduce(T v) {
#pragma unroll
  for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2)
    v = Op::apply(v, __shfl_xor_sync(FULL_MASK, v, offset));
  return v;
}

/* Kogge-Stone inclusive scan across the lanes of a warp. */
template <class Op, class T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset *= 2) {
    T up = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset)
      v = Op::apply(up, v);
  }
  return v;
}

/* Total of v over the block, returned to every thread. warp_slots holds
 * BLOCK_THREADS / 32 values in shared memory; the caller syncs before
 * reusing it. */
template <class Op, int BLOCK_THREADS, class T>
__device__ __forceinline__ T block_reduce(T v, T *warp_slots) {
  constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;
  v = warp_reduce<Op>(v);
  if (lane_id() == 0)
    warp_slots[warp_id()] = v;
  __syncthreads();
  T total = warp_slots[0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w)
    total = Op::apply(total, warp_slots[w]);
  return total;
}

/* Exclusive scan of v over the block in thread order: thread 0 gets the
 * identity. Every thread also gets the block's total in *aggregate (the same
 * bits in every thread: each combines the warp totals in the same order).
 * warp_slots as for block_reduce. */
template <class Op, int BLOCK_THREADS, class T>
__device__ __forceinline__ T block_exclusive_scan(T v, T *warp_slots,
                                                  T *aggregate) {
  constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;
  const int lane = lane_id(), warp = warp_id();
  T inclusive = warp_inclusive_scan<Op>(v);
  if (lane == WARP_THREADS - 1)
    warp_slots[warp] = inclusive;
  __syncthreads();

  // Each thread walks the few warp totals itself: cheaper than a second
  // barrier around a scan of them by one warp.
  T warp_prefix = Op::identity();
  T total = warp_slots[0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) {
    if (w == warp)
      warp_prefix = total;
    total = Op::apply(total, warp_slots[w]);
  }
  *aggregate = total;

  T exclusive = __shfl_up_sync(FULL_MASK, inclusive, 1);
  if (lane == 0)
    return warp_prefix;
  return warp == 0 ? exclusive : Op::apply(warp_prefix, exclusive);
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_BLOCK_CUH */
