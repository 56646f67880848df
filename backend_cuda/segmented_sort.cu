/* SPDX-License-Identifier: MIT */
/*
 * Segmented sort: a stable radix sort within each segment of the offsets,
 * every segment by the kernel its length suits (CUB's split of segments by
 * size, with more classes, and the device-wide sort for the longest).
 *
 * Phases (the OpenCL port uses the same names):
 *  1. segsort_classify reads the offsets once: a bad segment raises the
 *     first-bad word (segmented.cuh's protocol); a good one joins the list
 *     of its class (segment ids; bounds for the two long classes).
 *  2. The host reads the class counts and the first bad segment back (the
 *     call's one wait). A bad segment ends the call: nothing was written.
 *  3. One launch per non-empty class, each block (or warp) owning whole
 *     segments, so no two blocks ever touch one segment:
 *       segsort_warp    1 .. 32 x WARP_ITEMS keys: a warp ranks the
 *                       segment by counting (compare with every key);
 *       segsort_block   up to a tier's tile: BlockSort (sort_block.cuh),
 *                       every pass in shared memory; four tiers, so a
 *                       segment of 300 keys does not pay for a tile of
 *                       8192 (the last, past 48 KiB of shared memory,
 *                       where the device allows it);
 *       segsort_global  up to GLOBAL_MAX keys: one block runs every pass
 *                       over global memory, tile by tile, ping-ponging
 *                       between the output and scratch like the sort;
 *       device          longer: prism__cuda_sort on the segment, one after
 *                       another (a second wait, to read their bounds),
 *                       unless there are enough of them to fill the
 *                       device a block each: then segsort_global.
 * Segments of length 0 (and 1 in place) need nothing and join no class.
 * Lists are sized by how many segments of a class fit in n, so they stay
 * small when segments are many and empty; offsets that decrease could
 * overfill them, but those make a bad segment, and the classify kernel
 * drops entries past a list's end.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "segmented.cuh"
#include "sort_block.cuh"
#include "sort_keys.cuh"
#include "sort_rank.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <stdlib.h>

namespace prism_cuda {
namespace {

/* The classes, in order of length. */
enum SegClass {
  SEG_WARP,
  SEG_TIER0,
  SEG_TIER1,
  SEG_TIER2,
  SEG_TIER3,
  SEG_GLOBAL,
  SEG_DEVICE,
  SEG_CLASSES
};
constexpr int SEG_ID_LISTS = SEG_GLOBAL; // classes listed by segment id

/* What the host reads back: the first bad segment (~s, 0 for none) and
 * the length of each class's list. */
struct SegSplit {
  unsigned long long first_bad;
  unsigned count[SEG_CLASSES];
};

/* Per class: its longest segment and its list's room. */
struct SegLists {
  unsigned long long max_len[SEG_CLASSES];
  unsigned cap[SEG_CLASSES];
  unsigned *ids[SEG_ID_LISTS];                    // segment ids
  ulonglong2 *bounds[SEG_CLASSES - SEG_ID_LISTS]; // [begin, end) pairs
};

/* The block tiers of segsort_block. */
template <class K, class V, int TIER> struct Tier;
template <class K, class V> struct Tier<K, V, 0> {
  static constexpr int THREADS = SEGSORT_TIER0_THREADS;
  static constexpr int ITEMS = SEGSORT_TIER0_ITEMS;
};
template <class K, class V> struct Tier<K, V, 1> {
  static constexpr int THREADS = SEGSORT_TIER1_THREADS;
  static constexpr int ITEMS = SEGSORT_TIER1_ITEMS;
};
template <class K, class V> struct Tier<K, V, 2> {
  static constexpr int THREADS = SortPolicy<K, V>::SINGLE_THREADS;
  static constexpr int ITEMS = SortPolicy<K, V>::SINGLE_ITEMS;
};
// Past the 48 KiB of static shared memory: dynamic, where the device
// allows a block that much (a class of its own only then).
template <class K, class V> struct Tier<K, V, 3> {
  static constexpr bool WIDE = sizeof(K) == 8 || sizeof(V) == 8;
  static constexpr int THREADS = SEGSORT_TIER3_THREADS;
  static constexpr int ITEMS =
      WIDE ? SEGSORT_TIER3_ITEMS_8 : SEGSORT_TIER3_ITEMS_4;
};

/* A key's sort field: the bits [begin_bit, end_bit) of its image ^ flip,
 * compared as an unsigned integer. */
template <class KT> struct SortField {
  using K = typename KT::Bits;
  K flip, mask;
  unsigned shift;

  __device__ __forceinline__ K operator()(K key) const {
    return K((K(KT::image(key) ^ flip) >> shift) & mask);
  }
};

/*
 * segsort_classify: one thread per segment.
 * Ownership: thread s owns segment s: its two offsets, its class and its
 * list slot.
 * Partials meet: a shared counter per class hands out slots within the
 * block; one global atomicAdd per class and block reserves the block's run
 * of the list (per-segment global atomics would serialise a million tiny
 * segments on a few words).
 * Traffic: offsets read about once (neighbours share one), a list entry
 * written per segment that needs sorting.
 */
__global__ void __launch_bounds__(SEGSORT_CLASSIFY_THREADS)
    segsort_classify(const void *offsets, unsigned code, size_t num_segments,
                     size_t n, unsigned long long trivial, SegLists lists,
                     SegSplit *split) {
  __shared__ unsigned counts[SEG_CLASSES], bases[SEG_CLASSES];
  if (threadIdx.x < SEG_CLASSES)
    counts[threadIdx.x] = 0;
  __syncthreads();

  const size_t s = size_t(blockIdx.x) * SEGSORT_CLASSIFY_THREADS + threadIdx.x;
  int cls = -1;
  unsigned slot = 0;
  unsigned long long begin = 0, end = 0;
  if (s < num_segments) {
    bool ok_begin, ok_end;
    begin = load_offset(offsets, s, code, n, ok_begin);
    end = load_offset(offsets, s + 1, code, n, ok_end);
    if (!ok_begin || !ok_end || begin > end) {
      record_bad(&split->first_bad, s);
    } else if (end - begin > trivial) {
      const unsigned long long len = end - begin;
      cls = 0;
      while (cls < SEG_DEVICE && len > lists.max_len[cls])
        ++cls;
      slot = atomicAdd(&counts[cls], 1u);
    }
  }
  __syncthreads();
  if (threadIdx.x < SEG_CLASSES && counts[threadIdx.x] != 0)
    bases[threadIdx.x] =
        atomicAdd(&split->count[threadIdx.x], counts[threadIdx.x]);
  __syncthreads();
  if (cls < 0)
    return;
  const unsigned long long at = (unsigned long long)bases[cls] + slot;
  if (at >= lists.cap[cls])
    return; // only offsets that decrease overfill a list: a bad call
  if (cls < SEG_ID_LISTS)
    lists.ids[cls][at] = unsigned(s);
  else
    lists.bounds[cls - SEG_ID_LISTS][at] = make_ulonglong2(begin, end);
}

/* Segment s's bounds (a good segment: classify has checked them). */
__device__ __forceinline__ void segment_bounds(const void *offsets,
                                               unsigned code, size_t n,
                                               size_t s, size_t &begin,
                                               size_t &end) {
  bool ok;
  begin = size_t(load_offset(offsets, s, code, n, ok));
  end = size_t(load_offset(offsets, s + 1, code, n, ok));
}

/*
 * segsort_warp: a warp per segment of at most 32 x WARP_ITEMS keys.
 * Ownership: warp w owns list entry blockIdx.x * WARPS + w; lane l holds
 * the segment's keys l, l + 32, ... (and their values) in registers.
 * Partials meet: the keys' sort fields in shared memory; each key's rank
 * is the number of fields below its own plus the equal ones before it
 * (stable), so no two keys share a rank.
 * Traffic: each key and value read once and written once; every load
 * precedes the warp barrier and every store follows it, so in place is
 * safe.
 */
template <class KT, class V>
__global__ void __launch_bounds__(SEGSORT_WARP_BLOCK_THREADS)
    segsort_warp(const typename KT::Bits *keys_in, typename KT::Bits *keys_out,
                 const V *values_in, V *values_out, const void *offsets,
                 unsigned code, size_t n, const unsigned *list, size_t count,
                 SortField<KT> field) {
  using K = typename KT::Bits;
  constexpr bool PAIRS = HAS_VALUES<V>;
  constexpr int ITEMS = SEGSORT_WARP_ITEMS;
  constexpr int WARPS = SEGSORT_WARP_BLOCK_THREADS / WARP_THREADS;
  __shared__ K fields[WARPS][WARP_THREADS * ITEMS];

  const size_t w = size_t(blockIdx.x) * WARPS + warp_id();
  if (w >= count)
    return; // whole warps leave; nothing below syncs the block
  size_t begin, end;
  segment_bounds(offsets, code, n, list[w], begin, end);
  const int len = int(end - begin);
  const int lane = lane_id();
  K *mine = fields[warp_id()];

  K keys[ITEMS], own[ITEMS];
  V values[PAIRS ? ITEMS : 1];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = j * WARP_THREADS + lane;
    if (i < len) {
      keys[j] = keys_in[begin + i];
      own[j] = field(keys[j]);
      mine[i] = own[j];
      if constexpr (PAIRS)
        values[j] = values_in[begin + i];
    }
  }
  __syncwarp();
  int ranks[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = j * WARP_THREADS + lane;
    int rank = 0;
    if (i < len)
      for (int t = 0; t < len; ++t) {
        const K other = mine[t];
        rank += other < own[j] || (other == own[j] && t < i);
      }
    ranks[j] = rank;
  }
  __syncwarp();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    if (j * WARP_THREADS + lane < len) {
      keys_out[begin + ranks[j]] = keys[j];
      if constexpr (PAIRS)
        values_out[begin + ranks[j]] = values[j];
    }
  }
}

/*
 * segsort_block: a block per segment of at most a tier's tile; the sort
 * itself is sort_block.cuh's (which reads everything before it writes, so
 * in place is safe).
 */
template <class KT, class V, int TIER>
__global__ void __launch_bounds__(Tier<typename KT::Bits, V, TIER>::THREADS)
    segsort_block(const typename KT::Bits *keys_in, typename KT::Bits *keys_out,
                  const V *values_in, V *values_out, const void *offsets,
                  unsigned code, size_t n, const unsigned *list,
                  unsigned begin_bit, unsigned end_bit,
                  typename KT::Bits flip) {
  using K = typename KT::Bits;
  using T = Tier<K, V, TIER>;
  using Sort = BlockSort<KT, V, T::THREADS, T::ITEMS>;
  constexpr bool PAIRS = HAS_VALUES<V>;
  // Dynamic shared memory (sizeof Shared at launch), so the largest tier
  // may pass the 48 KiB a static allocation is limited to.
  extern __shared__ __align__(16) unsigned char segsort_block_smem[];
  typename Sort::Shared &s =
      *reinterpret_cast<typename Sort::Shared *>(segsort_block_smem);
  size_t begin, end;
  segment_bounds(offsets, code, n, list[blockIdx.x], begin, end);
  Sort::sort(keys_in + begin, keys_out + begin,
             PAIRS ? values_in + begin : values_in,
             PAIRS ? values_out + begin : values_out, int(end - begin),
             begin_bit, end_bit, flip, s);
}

/* Shared memory of segsort_global: the ranking's counters and the staged
 * tile share memory, as in the onesweep pass; the running digit starts of
 * every pass stay apart. */
template <class KT, class V> struct GlobalSort {
  using K = typename KT::Bits;
  using P = SortPolicy<K, V>;
  using Rank = BlockRadixRank<P::BLOCK_THREADS, P::ITEMS>;
  static constexpr bool PAIRS = HAS_VALUES<V>;
  static constexpr int MAX_PASSES =
      (int(sizeof(K)) * 8 + RADIX_BITS - 1) / RADIX_BITS;

  struct Smem {
    union {
      typename Rank::Counters counters;
      K keys[P::TILE_ITEMS];
      V values[PAIRS ? P::TILE_ITEMS : 1];
    } x;
    // Where pass p's next key of digit d goes, from the segment's start.
    unsigned starts[MAX_PASSES][RADIX_DIGITS];
    // This tile's key i of digit d goes to tile_base[d] + i.
    unsigned tile_base[RADIX_DIGITS];
    unsigned warp_slots[Rank::WARPS];
  };
};

/*
 * segsort_global: a block per segment longer than a tile, every pass over
 * global memory.
 * Ownership: block b owns the segment of bounds[b]; within a pass, tile by
 * tile in order, thread t owns the warp-striped items of sort_rank.cuh
 * while ranking and tile slots t, t + BLOCK_THREADS, ... while scattering.
 * Partials meet: one read of the keys counts the digits of every pass in
 * shared memory, scanned into each pass's digit starts; each tile's
 * ranking (sort_rank.cuh) gives its keys' places after the keys of
 * earlier tiles, whose counts the starts then advance by. Passes meet
 * through global memory at a block barrier.
 * Traffic: per pass each key (and value) read once and written once,
 * staged through shared memory so each digit's run of a tile is one
 * contiguous write; one more read of the keys for the counts, and one copy
 * for a sort in place with an odd number of passes (so that pass 0 never
 * writes what it reads).
 */
template <class KT, class V>
__global__ void
__launch_bounds__(SortPolicy<typename KT::Bits, V>::BLOCK_THREADS)
    segsort_global(const typename KT::Bits *keys_in,
                   typename KT::Bits *keys_out, const V *values_in,
                   V *values_out, typename KT::Bits *alt_keys, V *alt_values,
                   const ulonglong2 *bounds, unsigned begin_bit,
                   unsigned end_bit, typename KT::Bits flip) {
  using S = GlobalSort<KT, V>;
  using K = typename S::K;
  using P = typename S::P;
  using Rank = typename S::Rank;
  constexpr int THREADS = P::BLOCK_THREADS;
  constexpr int ITEMS = P::ITEMS;
  __shared__ typename S::Smem s;

  const size_t begin = size_t(bounds[blockIdx.x].x);
  const size_t len = size_t(bounds[blockIdx.x].y) - begin;
  const unsigned passes = sort_passes(begin_bit, end_bit);

  for (int i = threadIdx.x; i < S::MAX_PASSES * RADIX_DIGITS; i += THREADS)
    (&s.starts[0][0])[i] = 0;
  __syncthreads();
  for (size_t i = threadIdx.x; i < len; i += THREADS) {
    const K key = keys_in[begin + i];
    for (unsigned p = 0; p < passes; ++p)
      atomicAdd(&s.starts[p][pass_digit<KT>(flip, begin_bit, end_bit, p)(key)],
                1u);
  }
  __syncthreads();
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned count =
        threadIdx.x < RADIX_DIGITS ? s.starts[p][threadIdx.x] : 0u;
    unsigned total;
    const unsigned start =
        block_exclusive_scan<Op<unsigned, PRISM_SUM>, THREADS>(
            count, s.warp_slots, &total);
    if (threadIdx.x < RADIX_DIGITS)
      s.starts[p][threadIdx.x] = start;
    __syncthreads(); // the next scan rewrites warp_slots
  }

  // In place with an odd number of passes, pass 0 reads a copy.
  const K *src_keys = keys_in + begin;
  const V *src_values = S::PAIRS ? values_in + begin : values_in;
  const bool odd = passes % 2 == 1;
  const bool copy_keys = odd && keys_in == keys_out;
  const bool copy_values = S::PAIRS && odd && values_in == values_out;
  if (copy_keys || copy_values) {
    for (size_t i = threadIdx.x; i < len; i += THREADS) {
      if (copy_keys)
        alt_keys[begin + i] = keys_in[begin + i];
      if constexpr (S::PAIRS)
        if (copy_values)
          alt_values[begin + i] = values_in[begin + i];
    }
    __syncthreads();
    if (copy_keys)
      src_keys = alt_keys + begin;
    if constexpr (S::PAIRS)
      if (copy_values)
        src_values = alt_values + begin;
  }

  for (unsigned p = 0; p < passes; ++p) {
    const bool to_out = (passes - 1 - p) % 2 == 0;
    K *dst_keys = (to_out ? keys_out : alt_keys) + begin;
    V *dst_values =
        S::PAIRS ? (to_out ? values_out : alt_values) + begin : values_out;
    const DigitOf<KT> digit_of = pass_digit<KT>(flip, begin_bit, end_bit, p);
    for (size_t base = 0; base < len; base += P::TILE_ITEMS) {
      const int valid =
          int(len - base < size_t(P::TILE_ITEMS) ? len - base : P::TILE_ITEMS);
      const size_t first = base + size_t(Rank::position(0));
      K keys[ITEMS];
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        keys[j] = Rank::position(j) < valid ? src_keys[first + j * WARP_THREADS]
                                            : K(0);
      unsigned ranks[ITEMS];
      Rank::rank_in_warp(keys, valid, digit_of, s.x.counters, ranks);
      const unsigned count = Rank::digit_counts(s.x.counters);
      const unsigned offset =
          Rank::digit_offsets(count, s.x.counters, s.warp_slots);
      Rank::tile_ranks(valid, s.x.counters, ranks);
      if (threadIdx.x < RADIX_DIGITS) {
        const unsigned start = s.starts[p][threadIdx.x];
        s.tile_base[threadIdx.x] = start - offset; // wraps; + i undoes it
        s.starts[p][threadIdx.x] = start + count;
      }
      V values[S::PAIRS ? ITEMS : 1];
      if constexpr (S::PAIRS) {
#pragma unroll
        for (int j = 0; j < ITEMS; ++j)
          values[j] = Rank::position(j) < valid
                          ? src_values[first + j * WARP_THREADS]
                          : V(0);
      }
      __syncthreads(); // ranks are read from the counters: now reuse them

#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        if (Rank::position(j) < valid)
          s.x.keys[ranks[j]] = keys[j];
      __syncthreads();
      unsigned digits[S::PAIRS ? ITEMS : 1];
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        const int i = k * THREADS + int(threadIdx.x);
        if (i < valid) {
          const K key = s.x.keys[i];
          const unsigned d = digit_of(key);
          dst_keys[s.tile_base[d] + unsigned(i)] = key;
          if constexpr (S::PAIRS)
            digits[k] = d;
        }
      }
      if constexpr (S::PAIRS) {
        __syncthreads(); // the keys are read: the values take their place
#pragma unroll
        for (int j = 0; j < ITEMS; ++j)
          if (Rank::position(j) < valid)
            s.x.values[ranks[j]] = values[j];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
          const int i = k * THREADS + int(threadIdx.x);
          if (i < valid)
            dst_values[s.tile_base[digits[k]] + unsigned(i)] = s.x.values[i];
        }
      }
      __syncthreads(); // the next tile's counters overwrite the stage
    }
    src_keys = dst_keys;
    src_values = dst_values;
  }
}

/* Where the scratch regions start (bytes from its base), each at
 * PRISM__CUDA_SCRATCH_ALIGN: the split, the lists, and (when a segment can
 * be longer than a block tier's tile) the alternate keys and values of
 * segsort_global's ping-pong, at the same positions as the input. */
struct SegScratch {
  size_t split, lists[SEG_CLASSES], alt_keys, alt_values, total;
};

/* Launches kernel-ish f(first, blocks) over count blocks in chunks a grid
 * can hold. */
template <class F>
prism_status over_grid(size_t count, size_t per_block, F &&f) {
  constexpr size_t MAX_BLOCKS = size_t(1) << 30;
  const size_t blocks = (count + per_block - 1) / per_block;
  for (size_t first = 0; first < blocks; first += MAX_BLOCKS) {
    const size_t here =
        blocks - first < MAX_BLOCKS ? blocks - first : MAX_BLOCKS;
    prism_status st = f(first * per_block, here);
    if (st != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}

template <class KT, class V>
prism_status run_segmented_sort(prism_context *ctx, prism__cuda_ctx *c,
                                const prism__segmented_sort_args *a) {
  using K = typename KT::Bits;
  using P = SortPolicy<K, V>;
  constexpr bool PAIRS = HAS_VALUES<V>;
  const prism__sort_args *sa = &a->sort;
  const size_t n = sa->n, num_segments = a->num_segments;
  const unsigned code = offset_code(a->offset_type);
  const unsigned begin_bit = sa->begin_bit, end_bit = sa->end_bit;
  const K flip = sa->descending ? K(~K(0)) : K(0);
  const K *keys_in = mem_ptr<const K>(sa->keys_in);
  K *keys_out = mem_ptr<K>(sa->keys_out);
  const V *values_in = PAIRS ? mem_ptr<const V>(sa->values_in) : NULL;
  V *values_out = PAIRS ? mem_ptr<V>(sa->values_out) : NULL;
  const void *offsets = prism__cuda_ptr(a->offsets);
  const bool in_place =
      keys_in == keys_out && (!PAIRS || values_in == values_out);

  SegLists lists = {};
  lists.max_len[SEG_WARP] = size_t(WARP_THREADS) * SEGSORT_WARP_ITEMS;
  lists.max_len[SEG_TIER0] =
      size_t(Tier<K, V, 0>::THREADS) * Tier<K, V, 0>::ITEMS;
  lists.max_len[SEG_TIER1] =
      size_t(Tier<K, V, 1>::THREADS) * Tier<K, V, 1>::ITEMS;
  lists.max_len[SEG_TIER2] =
      size_t(Tier<K, V, 2>::THREADS) * Tier<K, V, 2>::ITEMS;
  lists.max_len[SEG_TIER3] =
      size_t(Tier<K, V, 3>::THREADS) * Tier<K, V, 3>::ITEMS;
  {
    // Tier 3 needs more shared memory than a block may have on some
    // devices: there it takes no segments.
    int optin = 0;
    const cudaError_t err = cudaDeviceGetAttribute(
        &optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, c->device);
    using Shared = typename BlockSort<KT, V, Tier<K, V, 3>::THREADS,
                                      Tier<K, V, 3>::ITEMS>::Shared;
    if (err != cudaSuccess)
      return prism__cuda_fail(ctx, err, "cudaDeviceGetAttribute");
    if (size_t(optin) < sizeof(Shared))
      lists.max_len[SEG_TIER3] = 0;
  }
  lists.max_len[SEG_GLOBAL] = SEGSORT_GLOBAL_MAX;
  lists.max_len[SEG_DEVICE] = ~0ull;
  for (int k = 1; k < SEG_CLASSES; ++k)
    if (lists.max_len[k] < lists.max_len[k - 1])
      lists.max_len[k] = lists.max_len[k - 1];
  const unsigned long long trivial = in_place ? 1 : 0;

  // A class of segments longer than L holds at most n / (L + 1) of them.
  SegScratch layout;
  size_t at = 0;
  layout.split = at;
  at += prism__cuda_align(sizeof(SegSplit));
  for (int k = 0; k < SEG_CLASSES; ++k) {
    const size_t shorter =
        k == 0 ? size_t(trivial) : size_t(lists.max_len[k - 1]);
    size_t cap = n / (shorter + 1) + 1;
    if (cap > num_segments)
      cap = num_segments;
    lists.cap[k] = unsigned(cap);
    layout.lists[k] = at;
    at += prism__cuda_align(
        cap * (k < SEG_ID_LISTS ? sizeof(unsigned) : sizeof(ulonglong2)));
  }
  const bool long_segments = n > lists.max_len[SEG_TIER3];
  layout.alt_keys = at;
  at += long_segments ? prism__cuda_align(n * sizeof(K)) : 0;
  layout.alt_values = at;
  at += long_segments && PAIRS ? prism__cuda_align(n * sizeof(V)) : 0;
  layout.total = at;

  void *scratch = NULL;
  prism_status st = prism__scratch(ctx, layout.total, &scratch);
  if (st != PRISM_OK)
    return st;
  char *base = static_cast<char *>(scratch);
  SegSplit *split = reinterpret_cast<SegSplit *>(base + layout.split);
  for (int k = 0; k < SEG_ID_LISTS; ++k)
    lists.ids[k] = reinterpret_cast<unsigned *>(base + layout.lists[k]);
  for (int k = SEG_ID_LISTS; k < SEG_CLASSES; ++k)
    lists.bounds[k - SEG_ID_LISTS] =
        reinterpret_cast<ulonglong2 *>(base + layout.lists[k]);
  K *alt_keys =
      long_segments ? reinterpret_cast<K *>(base + layout.alt_keys) : NULL;
  V *alt_values = long_segments && PAIRS
                      ? reinterpret_cast<V *>(base + layout.alt_values)
                      : NULL;

  PRISM_CUDA_TRY(ctx, cudaMemsetAsync, split, 0, sizeof(SegSplit), c->stream);
  segsort_classify<<<unsigned((num_segments + SEGSORT_CLASSIFY_THREADS - 1) /
                              SEGSORT_CLASSIFY_THREADS),
                     SEGSORT_CLASSIFY_THREADS, 0, c->stream>>>(
      offsets, code, num_segments, n, trivial, lists, split);
  if ((st = prism__cuda_check_launch(ctx, "segsort_classify")) != PRISM_OK)
    return st;
  SegSplit got;
  if ((st = prism__cuda_read_result(ctx, c, split, sizeof got, &got)) !=
      PRISM_OK)
    return st;
  if (got.first_bad != 0) {
    *a->first_bad = size_t(~got.first_bad);
    return PRISM_OK;
  }
  *a->first_bad = SIZE_MAX;

  const SortField<KT> field = {flip,
                               end_bit - begin_bit >= sizeof(K) * 8
                                   ? K(~K(0))
                                   : K((K(1) << (end_bit - begin_bit)) - 1),
                               begin_bit};
  if (got.count[SEG_WARP] != 0) {
    constexpr int WARPS = SEGSORT_WARP_BLOCK_THREADS / WARP_THREADS;
    const unsigned *list = lists.ids[SEG_WARP];
    const size_t count = got.count[SEG_WARP];
    st = over_grid(count, WARPS, [&](size_t first, size_t blocks) {
      segsort_warp<KT, V>
          <<<unsigned(blocks), SEGSORT_WARP_BLOCK_THREADS, 0, c->stream>>>(
              keys_in, keys_out, values_in, values_out, offsets, code, n,
              list + first, count - first, field);
      return prism__cuda_check_launch(ctx, "segsort_warp");
    });
    if (st != PRISM_OK)
      return st;
  }

  auto tier = [&](auto tier_tag) -> prism_status {
    constexpr int TIER = decltype(tier_tag)::value;
    const size_t count = got.count[SEG_TIER0 + TIER];
    if (count == 0)
      return PRISM_OK;
    const unsigned *list = lists.ids[SEG_TIER0 + TIER];
    using Shared = typename BlockSort<KT, V, Tier<K, V, TIER>::THREADS,
                                      Tier<K, V, TIER>::ITEMS>::Shared;
    if (sizeof(Shared) > 48 * 1024) {
      const cudaError_t err = cudaFuncSetAttribute(
          segsort_block<KT, V, TIER>,
          cudaFuncAttributeMaxDynamicSharedMemorySize, int(sizeof(Shared)));
      if (err != cudaSuccess)
        return prism__cuda_fail(ctx, err, "cudaFuncSetAttribute");
    }
    return over_grid(count, 1, [&](size_t first, size_t blocks) {
      segsort_block<KT, V, TIER>
          <<<unsigned(blocks), Tier<K, V, TIER>::THREADS, sizeof(Shared),
             c->stream>>>(keys_in, keys_out, values_in, values_out, offsets,
                          code, n, list + first, begin_bit, end_bit, flip);
      return prism__cuda_check_launch(ctx, "segsort_block");
    });
  };
  if ((st = tier(cuda::std::integral_constant<int, 0>())) != PRISM_OK ||
      (st = tier(cuda::std::integral_constant<int, 1>())) != PRISM_OK ||
      (st = tier(cuda::std::integral_constant<int, 2>())) != PRISM_OK ||
      (st = tier(cuda::std::integral_constant<int, 3>())) != PRISM_OK)
    return st;

  auto global = [&](const ulonglong2 *bounds, size_t count) {
    return over_grid(count, 1, [&](size_t first, size_t blocks) {
      segsort_global<KT, V>
          <<<unsigned(blocks), P::BLOCK_THREADS, 0, c->stream>>>(
              keys_in, keys_out, values_in, values_out, alt_keys, alt_values,
              bounds + first, begin_bit, end_bit, flip);
      return prism__cuda_check_launch(ctx, "segsort_global");
    });
  };
  if (got.count[SEG_GLOBAL] != 0 &&
      (st = global(lists.bounds[SEG_GLOBAL - SEG_ID_LISTS],
                   got.count[SEG_GLOBAL])) != PRISM_OK)
    return st;

  const size_t device_count = got.count[SEG_DEVICE];
  if (device_count == 0)
    return PRISM_OK;
  // Enough long segments to give every SM its own: a block each (their
  // lengths fit the block's 32-bit counts when n does).
  if (device_count >= size_t(c->sm_count) * SEGSORT_DEVICE_SPREAD &&
      n <= size_t(UINT32_MAX))
    return global(lists.bounds[SEG_DEVICE - SEG_ID_LISTS], device_count);
  // Else the device-wide sort, one segment after another. It takes the
  // pooled scratch too (and may regrow it), so the bounds come to the host
  // first: the call's second wait.
  ulonglong2 *host =
      static_cast<ulonglong2 *>(malloc(device_count * sizeof(ulonglong2)));
  if (!host)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "no host memory for the bounds of %zu long segments",
                       device_count);
  cudaError_t err = cudaMemcpyAsync(
      host, lists.bounds[SEG_DEVICE - SEG_ID_LISTS],
      device_count * sizeof(ulonglong2), cudaMemcpyDeviceToHost, c->stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(c->stream);
  if (err != cudaSuccess) {
    free(host);
    return prism__cuda_fail(ctx, err, "cudaMemcpyAsync");
  }
  for (size_t i = 0; i < device_count && st == PRISM_OK; ++i) {
    prism__sort_args sub = *sa;
    const size_t first = size_t(host[i].x);
    sub.n = size_t(host[i].y) - first;
    sub.keys_in.offset += first * sizeof(K);
    sub.keys_out.offset += first * sizeof(K);
    if (PAIRS) {
      sub.values_in.offset += first * sizeof(V);
      sub.values_out.offset += first * sizeof(V);
    }
    st = prism__cuda_sort(ctx, &sub);
  }
  free(host);
  return st;
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status
prism__cuda_segmented_sort(prism_context *ctx,
                           const prism__segmented_sort_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  return prism_cuda::dispatch_sort(
      ctx, args->sort.key_type, args->sort.value_size, [&](auto tag) {
        using Tag = decltype(tag);
        using KT = prism_cuda::SortKey<Tag::key_type>;
        using V = typename prism_cuda::SortValue<Tag::value_bytes>::type;
        return prism_cuda::run_segmented_sort<KT, V>(ctx, c, args);
      });
}
