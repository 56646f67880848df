/* SPDX-License-Identifier: MIT */
/*
 * Segmented reduce, by offsets: a merge path (Merrill & Garland 2016, as
 * CUB's merge-based SpMV) over the n elements and the num_segments + 1
 * bounds B_k = offsets[k] clamped to [0, n]; element j comes before bound
 * k when j < B_k, and bound k closes segment k - 1. Every tile gets the
 * same number of merge items whatever the lengths: a huge segment spreads
 * over many tiles, tiny and empty ones share one, and empty ones cost a
 * merge item each. Values still open at a tile's end meet the next tiles'
 * through the same look-back as the scans (segmented_status.cuh). The
 * merge needs bounds that never decrease: each tile checks the bounds it
 * reads and its split points; on a failure (a decreasing segment) it
 * raises irregular, and seg_reduce_segments, launched after and idle
 * otherwise, redoes every segment on its own, so every good segment is
 * exact for any offsets.
 *
 * Phases (kernels_cl/segmented.cl uses the same names): seg_reduce_search,
 * seg_reduce_tiles, seg_reduce_segments.
 */
#include "dispatch.cuh"
#include "segmented.cuh"
#include "segmented_status.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* Bounds consumed at diagonal d of the merge of the bounds (k <= S) and
 * the n elements: the first k with B_k > d - k - 1 (bound k comes before
 * element j when B_k <= j). Any bounds give an answer in range; only
 * non-decreasing ones give the merge. */
__device__ __forceinline__ size_t merge_search(const void *offsets,
                                               unsigned code, size_t n,
                                               size_t num_segments, size_t d) {
  size_t lo = d > n ? d - n : 0;
  size_t hi = d < num_segments + 1 ? d : num_segments + 1;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    bool ok;
    if (load_offset(offsets, mid, code, n, ok) + mid + 1 <= d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The reduce's control words, at the start of its scratch. */
struct ReduceControl {
  unsigned ticket;
  unsigned irregular; // some tile found decreasing bounds
  unsigned long long first_bad;
};

/*
 * seg_reduce_search: ownership: thread t (<= tiles) finds the split of
 * merge diagonal t * tile_items into splits[t] (bounds consumed before it)
 * and clears status_words of the status arrays (as many as a tile has in
 * both), from t * status_words; thread 0 clears the control words.
 * Traffic: a binary search per tile over the offsets (its first steps
 * shared through the cache).
 */
__global__ void __launch_bounds__(SEG_MARK_THREADS)
    seg_reduce_search(const void *offsets, unsigned code, size_t n,
                      size_t num_segments, unsigned tiles, size_t tile_items,
                      unsigned long long *splits, unsigned long long *status,
                      size_t status_words, ReduceControl *control) {
  const size_t t = size_t(blockIdx.x) * SEG_MARK_THREADS + threadIdx.x;
  if (t > tiles)
    return;
  const size_t total = n + num_segments + 1;
  const size_t d = t * tile_items < total ? t * tile_items : total;
  splits[t] = merge_search(offsets, code, n, num_segments, d);
  if (t < tiles)
    for (size_t w = t * status_words; w < (t + 1) * status_words; ++w)
      status[w] = 0;
  if (t == 0)
    *control = ReduceControl{0, 0, 0};
}

template <class T, prism_op OP> struct SegMerge {
  using Op = prism_cuda::Op<T, OP>;
  using S = SegOp<Op>;
  using Pair = SegPair<T>;
  using P = SegReducePolicy<T>;
  static constexpr int BLOCK = P::BLOCK_THREADS;
  static constexpr int ITEMS = P::ITEMS;
  static constexpr int TILE = P::TILE_ITEMS;
  static constexpr int WARPS = BLOCK / WARP_THREADS;

  /* A bound in shared memory: where it lies relative to the tile's first
   * element (bits 0..30) and whether the segment it closes is good (bit
   * 31); once that segment is reduced, its value. As wide as T. */
  using SlotBits =
      cuda::std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
  union Slot {
    SlotBits bound;
    T value;
  };

  struct Smem {
    T vals[TILE];
    Slot bounds[TILE + 2]; // bound kb0 - 1 + j at j
    unsigned split_at[BLOCK + 1];
    Pair warp_slots[WARPS];
    Pair tile_prefix;
    unsigned tile;
    int broken;
  };

  static __device__ __forceinline__ unsigned rel(SlotBits b) {
    return unsigned(b) & 0x7fffffffu;
  }
  static __device__ __forceinline__ bool good(SlotBits b) {
    return unsigned(b) >> 31;
  }
};

/*
 * seg_reduce_tiles: ownership: the block owns the merge tile whose id it
 * draws from the ticket: diagonals [t, t + 1) * TILE_ITEMS, i.e. bounds
 * [kb0, kb1) and elements [ke0, ke1); each thread owns ITEMS merge items
 * of it, found by a merge-path search in shared memory. The block loads
 * bounds kb0 - 1 .. kb1 and checks them (non-decreasing, the splits
 * between them); a failure raises irregular and leaves the tile to
 * seg_reduce_segments.
 * Partials meet: a thread's pair (the value after its last bound) -> block
 * segmented scan -> look-back across tiles (waited for unless bound 0 is
 * the tile's first) -> each thread walks its items from its carry, a bound
 * storing the value of the segment it closes into its slot -> the tile's
 * results to out, coalesced.
 * Traffic: each element read once, each offset twice (the second time
 * from the cache; plus the search), each result written once, whatever
 * the segment lengths; a few status words per tile.
 */
template <class T, prism_op OP>
__global__ void
__launch_bounds__(SegReducePolicy<T>::BLOCK_THREADS,
                  min_blocks_for_arch(SegReducePolicy<T>::MIN_BLOCKS_PER_SM,
                                      SegReducePolicy<T>::BLOCK_THREADS))
    seg_reduce_tiles(const T *in, size_t n, const void *offsets, unsigned code,
                     size_t num_segments, T *out,
                     const unsigned long long *splits, SegStatus<T> status,
                     ReduceControl *control, bool checked) {
  using M = SegMerge<T, OP>;
  using Op = typename M::Op;
  using S = typename M::S;
  constexpr int ITEMS = M::ITEMS, BLOCK = M::BLOCK;
  __shared__ typename M::Smem s;
  const int tid = threadIdx.x;

  if (tid == 0) {
    s.tile = atomicAdd(&control->ticket, 1u);
    s.broken = 0;
  }
  __syncthreads();
  const unsigned t = s.tile;
  const size_t total = n + num_segments + 1;
  const size_t d0 = min(size_t(t) * M::TILE, total);
  const size_t d1 = min(d0 + M::TILE, total);
  const size_t kb0 = splits[t], kb1 = splits[t + 1];
  const size_t ke0 = d0 - kb0, ke1 = d1 - kb1;

  // Load and check bounds kb0 - 1 .. kb1 into slots 0 .. tb + 1: they
  // must not decrease, the tile's own must lie in [ke0, ke1], kb1 at or
  // past ke1 and kb0 - 1 at or before ke0 (the splits lie between them).
  // Each thread also reads the bound before its own. Splits that run
  // backwards break the tile before it loads anything.
  const bool ordered = kb0 <= kb1 && ke0 <= ke1;
  const int tb = ordered ? int(kb1 - kb0) : 0;
  const int te = ordered ? int(ke1 - ke0) : 0;
#pragma unroll
  for (int r = 0; r < ITEMS + 1; ++r) {
    const int j = tid + r * BLOCK;
    if (!ordered || j >= tb + 2)
      continue;
    const size_t k = kb0 + j - 1;
    bool ok, ok_prev = false;
    if (j == 0) {
      if (kb0 > 0 && load_offset(offsets, k, code, n, ok) > ke0)
        s.broken = 1;
      continue;
    }
    if (k > num_segments)
      continue;
    const unsigned long long b = load_offset(offsets, k, code, n, ok);
    const unsigned long long prev =
        k > 0 ? load_offset(offsets, k - 1, code, n, ok_prev) : 0ull;
    if (prev > b || (j <= tb ? b < ke0 || b > ke1 : b < ke1))
      s.broken = 1;
    // Both in [0, n], so prev <= b holds in the raw offsets too.
    const bool good = k > 0 && ok_prev && ok;
    s.bounds[j].bound = typename M::SlotBits((unsigned(b - ke0) & 0x7fffffffu) |
                                             unsigned(good) << 31);
  }
  __syncthreads();
  if (!ordered || s.broken) {
    if (tid == 0) {
      control->irregular = 1;
      status.publish(t, PRISM_LB_PREFIX, SegPair<T>{Op::identity(), SEG_START});
    }
    return;
  }
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const int e = tid + r * BLOCK;
    if (e < te)
      s.vals[e] = in[ke0 + e];
  }
  __syncthreads();

  // Merge path within the tile: thread tid takes diagonals
  // [tid, tid + 1) * ITEMS; bound b (slot b + 1) comes before element e
  // when its rel <= e.
  {
    const int d = min(tid * ITEMS, tb + te);
    int lo = d > te ? d - te : 0, hi = min(d, tb);
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (int(M::rel(s.bounds[mid + 1].bound)) + mid + 1 <= d)
        lo = mid + 1;
      else
        hi = mid;
    }
    s.split_at[tid] = unsigned(lo);
    if (tid == 0)
      s.split_at[BLOCK] = unsigned(tb);
  }
  __syncthreads();
  const int dd0 = min(tid * ITEMS, tb + te);
  const int dd1 = min(dd0 + ITEMS, tb + te);
  const int b0 = int(s.split_at[tid]), b1 = int(s.split_at[tid + 1]);
  const int e0 = dd0 - b0, e1 = dd1 - b1;

  // This thread's pair: the value after its last bound.
  SegPair<T> mine = S::template none<T>();
  {
    int from = e0;
    if (b1 > b0) {
      from = max(from, int(M::rel(s.bounds[b1].bound)));
      mine.kind = SEG_START;
    }
    for (int e = from; e < e1; ++e)
      mine.value = Op::apply(mine.value, s.vals[e]);
  }
  SegPair<T> aggregate;
  const SegPair<T> before_mine =
      block_seg_exclusive_scan<Op, BLOCK>(mine, s.warp_slots, &aggregate);
  if (warp_id() == 0) {
    // The tile's first bound closes a segment begun before the tile, and
    // wants the carry, unless it is bound 0.
    const bool pause = gridDim.x >= SEG_LOOKBACK_PAUSE_MIN_TILES;
    const SegPair<T> p = lookback<SegLookback<Op, T>>(
        status, t, aggregate, kb0 > 0 || tb == 0,
        pause ? SEG_LOOKBACK_FIRST_NS : 0, pause ? SEG_LOOKBACK_SPIN_NS : 0);
    if (tid == 0)
      s.tile_prefix = p;
  }
  __syncthreads();

  // Walk the items: each bound closes a segment.
  T acc = S::combine(s.tile_prefix, before_mine).value;
  int e = e0;
  for (int b = b0; b < b1; ++b) {
    const typename M::SlotBits slot = s.bounds[b + 1].bound;
    const int r = min(int(M::rel(slot)), e1);
    for (; e < r; ++e)
      acc = Op::apply(acc, s.vals[e]);
    const bool good = M::good(slot);
    s.bounds[b + 1].value = good ? acc : Op::identity();
    if (checked && kb0 + b > 0 && !good)
      record_bad(&control->first_bad, kb0 + b - 1);
    acc = Op::identity();
  }
  __syncthreads();
  for (int b = tid; b < tb; b += BLOCK)
    if (kb0 + b > 0)
      out[kb0 + b - 1] = s.bounds[b + 1].value;
}

/*
 * seg_reduce_segments: every segment on its own, for offsets the merge
 * path cannot take; returns at once unless a tile raised irregular.
 * Ownership: block g reduces segments g, g + grid, ... (strided loads,
 * block_reduce), thread 0 writes out[s]. Traffic: each good segment's
 * elements read once, out written once.
 */
template <class T, prism_op OP>
__global__ void __launch_bounds__(SegReducePolicy<T>::BLOCK_THREADS)
    seg_reduce_segments(const T *in, size_t n, const void *offsets,
                        unsigned code, size_t num_segments, T *out,
                        ReduceControl *control, bool checked) {
  using Op = prism_cuda::Op<T, OP>;
  constexpr int BLOCK = SegReducePolicy<T>::BLOCK_THREADS;
  __shared__ T warp_slots[BLOCK / WARP_THREADS];
  if (!*static_cast<volatile unsigned *>(&control->irregular))
    return;
  for (size_t s = blockIdx.x; s < num_segments; s += gridDim.x) {
    bool ok_lo, ok_hi;
    const size_t lo = load_offset(offsets, s, code, n, ok_lo);
    const size_t hi = load_offset(offsets, s + 1, code, n, ok_hi);
    const bool good = ok_lo && ok_hi && lo <= hi;
    T x = Op::identity();
    if (good)
      for (size_t i = lo + threadIdx.x; i < hi; i += BLOCK)
        x = Op::apply(x, in[i]);
    x = block_reduce<Op, BLOCK>(x, warp_slots);
    if (threadIdx.x == 0) {
      out[s] = x;
      if (checked && !good)
        record_bad(&control->first_bad, s);
    }
    __syncthreads(); // warp_slots is reused
  }
}

/* ---- host --------------------------------------------------------------- */

/*
 * Reduce. Scratch, one request: [control | status aggregate | status
 * prefix | splits], cleared by seg_reduce_search itself.
 */
template <class T, prism_op OP>
prism_status run_reduce(prism_context *ctx, prism__cuda_ctx *c,
                        const prism__segmented_args *a) {
  using P = SegReducePolicy<T>;
  using Status = SegStatus<T>;
  const size_t total = a->n + a->num_segments + 1;
  const size_t num_tiles = (total + P::TILE_ITEMS - 1) / P::TILE_ITEMS;
  if (num_tiles >= size_t(INT32_MAX))
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "segmented reduce of %zu elements and %zu segments: "
                       "more than 2^31 tiles",
                       a->n, a->num_segments);
  const size_t status_words = num_tiles * Status::STATUS_WORDS;
  const size_t control_bytes = prism__cuda_align(sizeof(ReduceControl));
  const size_t status_bytes =
      prism__cuda_align(2 * status_words * sizeof(unsigned long long));
  const size_t bytes = control_bytes + status_bytes +
                       (num_tiles + 1) * sizeof(unsigned long long);
  void *native = NULL;
  prism_status st = prism__scratch(ctx, bytes, &native);
  if (st != PRISM_OK)
    return st;
  unsigned char *scratch = static_cast<unsigned char *>(native);
  ReduceControl *control = reinterpret_cast<ReduceControl *>(scratch);
  Status status;
  status.aggregate =
      reinterpret_cast<unsigned long long *>(scratch + control_bytes);
  status.prefix = status.aggregate + status_words;
  unsigned long long *splits = reinterpret_cast<unsigned long long *>(
      scratch + control_bytes + status_bytes);

  // Every access below is element by element: element alignment (all a
  // view has) is enough.
  const T *in = mem_ptr<const T>(a->in);
  T *out = mem_ptr<T>(a->out);
  const void *offsets = prism__cuda_ptr(a->offsets);
  const unsigned code = offset_code(a->offset_type);
  const bool checked = a->first_bad != NULL;
  // The two status arrays lie back to back: search thread t clears words
  // [t, t + 1) * 2 * STATUS_WORDS of the pair.
  const size_t search_blocks =
      (num_tiles + 1 + SEG_MARK_THREADS - 1) / SEG_MARK_THREADS;
  seg_reduce_search<<<unsigned(search_blocks), SEG_MARK_THREADS, 0,
                      c->stream>>>(
      offsets, code, a->n, a->num_segments, unsigned(num_tiles), P::TILE_ITEMS,
      splits, status.aggregate, 2 * Status::STATUS_WORDS, control);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_search")) != PRISM_OK)
    return st;
  seg_reduce_tiles<T, OP>
      <<<unsigned(num_tiles), P::BLOCK_THREADS, 0, c->stream>>>(
          in, a->n, offsets, code, a->num_segments, out, splits, status,
          control, checked);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_tiles")) != PRISM_OK)
    return st;
  size_t blocks = size_t(c->sm_count) * P::FALLBACK_BLOCKS_PER_SM;
  if (blocks > a->num_segments)
    blocks = a->num_segments;
  seg_reduce_segments<T, OP>
      <<<unsigned(blocks), P::BLOCK_THREADS, 0, c->stream>>>(
          in, a->n, offsets, code, a->num_segments, out, control, checked);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_segments")) != PRISM_OK)
    return st;
  if (!checked)
    return PRISM_OK;
  return read_first_bad(ctx, c, &control->first_bad, a->first_bad);
}

} // namespace

prism_status segmented_reduce(prism_context *ctx, prism__cuda_ctx *c,
                              const prism__segmented_args *a) {
  return dispatch_type_op(ctx, a->type, a->op, [&](auto tag) {
    using Tag = decltype(tag);
    return run_reduce<typename Tag::type, Tag::op>(ctx, c, a);
  });
}

} // namespace prism_cuda
