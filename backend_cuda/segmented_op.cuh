/* SPDX-License-Identifier: MIT */
/*
 * The segmented operator and its warp and block scans (segmented_scan.cu,
 * segmented_reduce.cu, segmented_status.cuh).
 *
 * A run of elements folds to a pair (value, kind): kind is the run's last
 * mark (SEG_START: a head flag or the start of a good segment; SEG_END:
 * the end of a good segment that no other starts at; SEG_NONE), value the
 * op of the elements from that mark on (of all of them when there is
 * none). Pairs combine as
 *   (v1, k1) + (v2, k2) = k2 ? (v2, k2) : (v1 op v2, k1),
 * which is associative (not commutative).
 */
#ifndef PRISM_BACKEND_CUDA_SEGMENTED_OP_CUH
#define PRISM_BACKEND_CUDA_SEGMENTED_OP_CUH

#include "block.cuh"
#include "ops.cuh"

namespace prism_cuda {

enum : unsigned { SEG_NONE = 0, SEG_START = 1, SEG_END = 2 };

template <class T> struct SegPair {
  T value;
  unsigned kind;
};

template <class Op> struct SegOp {
  template <class T> static __device__ __forceinline__ SegPair<T> none() {
    return SegPair<T>{Op::identity(), SEG_NONE};
  }
  /* a before b. */
  template <class T>
  static __device__ __forceinline__ SegPair<T> combine(SegPair<T> a,
                                                       SegPair<T> b) {
    return b.kind ? b : SegPair<T>{Op::apply(a.value, b.value), a.kind};
  }
  /* One element x with mark after a. */
  template <class T>
  static __device__ __forceinline__ SegPair<T> push(SegPair<T> a, T x,
                                                    unsigned mark) {
    return mark ? SegPair<T>{x, mark}
                : SegPair<T>{Op::apply(a.value, x), a.kind};
  }
};

/* Kogge-Stone inclusive scan of pairs across the lanes of a warp. */
template <class Op, class T>
__device__ __forceinline__ SegPair<T> warp_seg_inclusive_scan(SegPair<T> p) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset *= 2) {
    const T up_value = __shfl_up_sync(FULL_MASK, p.value, offset);
    const unsigned up_kind = __shfl_up_sync(FULL_MASK, p.kind, offset);
    if (lane >= offset && !p.kind) {
      p.value = Op::apply(up_value, p.value);
      p.kind = up_kind;
    }
  }
  return p;
}

/* Exclusive scan of pairs over the block in thread order (thread 0 gets
 * the none pair), and the block's pair in *aggregate, as
 * block_exclusive_scan does for values. warp_slots holds BLOCK_THREADS /
 * 32 pairs in shared memory; the caller syncs before reusing it. */
template <class Op, int BLOCK_THREADS, class T>
__device__ __forceinline__ SegPair<T>
block_seg_exclusive_scan(SegPair<T> p, SegPair<T> *warp_slots,
                         SegPair<T> *aggregate) {
  using S = SegOp<Op>;
  constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;
  const int lane = lane_id(), warp = warp_id();
  const SegPair<T> inclusive = warp_seg_inclusive_scan<Op>(p);
  if (lane == WARP_THREADS - 1)
    warp_slots[warp] = inclusive;
  __syncthreads();

  SegPair<T> warp_prefix = S::template none<T>();
  SegPair<T> total = warp_slots[0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) {
    if (w == warp)
      warp_prefix = total;
    total = S::combine(total, warp_slots[w]);
  }
  *aggregate = total;

  SegPair<T> exclusive;
  exclusive.value = __shfl_up_sync(FULL_MASK, inclusive.value, 1);
  exclusive.kind = __shfl_up_sync(FULL_MASK, inclusive.kind, 1);
  if (lane == 0)
    return warp_prefix;
  return warp == 0 ? exclusive : S::combine(warp_prefix, exclusive);
}

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SEGMENTED_OP_CUH */
