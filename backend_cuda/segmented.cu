/* SPDX-License-Identifier: MIT */
/*
 * Segmented scan (by head flags or by offsets) and segmented reduce (by
 * offsets). kernels_cl/segmented.cl is the OpenCL port: same phases, same
 * names, same scratch layouts.
 *
 * Scans: a single pass with decoupled look-back over tiles, as scan.cu,
 * with the segmented operator on (value, kind) pairs (segmented_status.cuh):
 * a tile whose pair has a mark publishes its inclusive prefix at once, so
 * a look-back stops at the nearest tile holding a head; a tile whose first
 * element is a head waits for nothing. ~2n element moves plus the flags.
 * By offsets, seg_mark first turns the offsets into two bitmaps of n bits
 * in scratch, segment starts and ends (warp-combined atomicOr), and the
 * same scan reads bits where the scan by flags reads flags; elements whose
 * pair has no start (outside every segment) are not written. The bitmaps
 * cost n / 4 bytes of traffic, and make any offsets, even decreasing ones,
 * mean what prism.h says.
 *
 * Reduce: a merge path (Merrill & Garland 2016, as CUB's merge-based SpMV)
 * over the n elements and the num_segments + 1 bounds B_k = offsets[k]
 * clamped to [0, n]; element j comes before bound k when j < B_k, and
 * bound k closes segment k - 1. Every tile gets the same number of merge
 * items whatever the lengths: a huge segment spreads over many tiles, tiny
 * and empty ones share one, and empty ones cost a merge item each. Values
 * still open at a tile's end meet the next tiles' through the same
 * look-back as the scans. The merge needs bounds that never decrease: each
 * tile checks the bounds it reads and its split points; on a failure (a
 * decreasing segment) it raises irregular, and seg_reduce_segments,
 * launched after and idle otherwise, redoes every segment on its own, so
 * every good segment is exact for any offsets.
 *
 * Checked calls keep the first bad segment s in scratch as ~s, raised with
 * a 64-bit atomicMax (so a zeroed word means none, cleared with the rest),
 * and bring it back through the pinned result slot with a stream sync.
 *
 * Phases: seg_mark; seg_scan_lookback (seg_scan_single_block for inputs of
 * a few tiles); seg_reduce_search, seg_reduce_tiles, seg_reduce_segments.
 */
#include "cuda_internal.h"
#include "dispatch.cuh"
#include "segmented_status.cuh"
#include "tile_io.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* Offset types as a run-time code: OFFSET_SIGNED | OFFSET_WIDE. Flags by
 * their byte count. One instantiation serves every index type. */
constexpr unsigned OFFSET_SIGNED = 1, OFFSET_WIDE = 2;

/* No bitmap word (seg_mark lanes with nothing to set). */
constexpr unsigned long long NO_WORD = ~0ull;

/* Offset s clamped to [0, n]; ok = whether it lay in [0, n]. */
__device__ __forceinline__ unsigned long long
load_offset(const void *offsets, size_t s, unsigned code, size_t n, bool &ok) {
  unsigned long long v;
  bool negative;
  if (code & OFFSET_WIDE) {
    v = static_cast<const unsigned long long *>(offsets)[s];
    negative = (code & OFFSET_SIGNED) && (long long)v < 0;
  } else {
    const unsigned w = static_cast<const unsigned *>(offsets)[s];
    negative = (code & OFFSET_SIGNED) && int(w) < 0;
    v = w;
  }
  ok = !negative && v <= n;
  return negative ? 0ull : (v < n ? v : (unsigned long long)n);
}

__device__ __forceinline__ void record_bad(unsigned long long *first_bad,
                                           size_t s) {
  atomicMax(first_bad, ~(unsigned long long)s);
}

/* The lanes of a warp set bits of bitmap words (word NO_WORD: none). Each
 * run of consecutive lanes with one word (consecutive good segments of
 * non-decreasing offsets) ORs its bits towards the run's first lane, which
 * alone issues the atomicOr; the OR may also gather bits of later lanes of
 * that word, which is harmless. */
__device__ __forceinline__ void
warp_set_bits(unsigned *bits, unsigned long long word, unsigned bit) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < WARP_THREADS; offset *= 2) {
    const unsigned long long other = __shfl_down_sync(FULL_MASK, word, offset);
    const unsigned other_bit = __shfl_down_sync(FULL_MASK, bit, offset);
    if (lane + offset < WARP_THREADS && other == word)
      bit |= other_bit;
  }
  const unsigned long long before = __shfl_up_sync(FULL_MASK, word, 1);
  if (word != NO_WORD && (lane == 0 || before != word))
    atomicOr(bits + word, bit);
}

/*
 * seg_mark: ownership: thread i of the launch owns segment base + i. A
 * good non-empty segment sets its start bit and, below n, its end bit in
 * the bitmaps (zeroed before). Partials meet in the bitmap words: lanes
 * combine bits of one word first (warp_set_bits), then one atomicOr per
 * run. Checked: each warp's lowest bad segment raises first_bad. Traffic:
 * the offsets read once (coalesced), about two atomics per warp for tiny
 * segments, two per segment for long ones.
 */
__global__ void __launch_bounds__(SEG_MARK_THREADS)
    seg_mark(const void *offsets, unsigned code, size_t num_segments, size_t n,
             size_t base, unsigned *starts, unsigned *ends,
             unsigned long long *first_bad) {
  const size_t s = base + size_t(blockIdx.x) * SEG_MARK_THREADS + threadIdx.x;
  unsigned long long start_word = NO_WORD, end_word = NO_WORD;
  unsigned start_bit = 0, end_bit = 0;
  bool bad = false;
  if (s < num_segments) {
    bool ok_lo, ok_hi;
    const unsigned long long lo = load_offset(offsets, s, code, n, ok_lo);
    const unsigned long long hi = load_offset(offsets, s + 1, code, n, ok_hi);
    bad = !(ok_lo && ok_hi && lo <= hi);
    if (!bad && lo < hi) {
      start_word = lo >> 5;
      start_bit = 1u << (lo & 31);
      if (hi < n) {
        end_word = hi >> 5;
        end_bit = 1u << (hi & 31);
      }
    }
  }
  warp_set_bits(starts, start_word, start_bit);
  warp_set_bits(ends, end_word, end_bit);
  if (first_bad) {
    const unsigned mask = __ballot_sync(FULL_MASK, bad);
    if (mask && lane_id() == __ffs(mask) - 1)
      record_bad(first_bad, s);
  }
}

/* ---- scans -------------------------------------------------------------- */

/* Where a tile's marks come from: flags (flag_bytes each), or the bitmaps
 * of seg_mark (starts non-null). */
struct MarkSource {
  const void *flags;
  unsigned flag_bytes;
  bool aligned; // flags on a 16-byte boundary
  const unsigned *starts;
  const unsigned *ends;
};

/* The per-tile work both scan kernels share. */
template <class T, prism_op OP> struct SegTileScan {
  using Op = prism_cuda::Op<T, OP>;
  using S = SegOp<Op>;
  using Pair = SegPair<T>;
  using P = SegScanPolicy<T>;
  static constexpr int ITEMS = P::ITEMS_PER_THREAD;
  static constexpr int WARPS = P::BLOCK_THREADS / WARP_THREADS;
  static constexpr unsigned ITEM_MASK =
      ITEMS == 32 ? ~0u : (1u << (ITEMS % 32)) - 1u;
  using Warp = WarpTile<T, ITEMS>;
  static_assert(ITEMS % 4 == 0, "flags are staged four bytes at a time");

  struct Smem {
    T transpose[WARPS][Warp::SMEM_ITEMS]; // one slice per warp
    alignas(16) unsigned char heads[WARPS][Warp::WARP_ITEMS]; // flags, 0/1
    unsigned keep[WARPS][WARP_THREADS]; // by offsets: items to write
    Pair warp_slots[WARPS];             // block_seg_exclusive_scan
    Pair tile_prefix;                   // look-back result, to all warps
    unsigned tile;                      // ticket, to all warps
    unsigned first_marked;              // the tile's first element
  };

  static __device__ __forceinline__ int warp_valid(int valid) {
    return min(max(valid - warp_id() * Warp::WARP_ITEMS, 0), Warp::WARP_ITEMS);
  }

  /* Elements [base, base + valid) into items (blocked); past valid, the
   * identity (unmarked, so it leaves every pair unchanged). */
  static __device__ __forceinline__ void load(const T *in, size_t base,
                                              int valid, bool aligned, Smem &s,
                                              T (&items)[ITEMS]) {
    const int wv = warp_valid(valid);
    Warp::load(in + base + warp_id() * Warp::WARP_ITEMS, wv,
               aligned && wv == Warp::WARP_ITEMS, Op::identity(),
               s.transpose[warp_id()], items);
  }

  /* 1 in each byte of x that is not zero, 0 in the others. */
  static __device__ __forceinline__ unsigned nonzero_bytes(unsigned x) {
    return ((((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) >> 7) & 0x01010101u;
  }

  /* The warp's flags [first, first + valid) as 0/1 bytes into heads, in
   * element order (0 past valid). vec: the slice is whole and its flags
   * 16-byte aligned, so each lane loads four flags at a time (two of 8
   * bytes), coalesced; else one flag per lane and step. */
  static __device__ __forceinline__ void stage_flags(const MarkSource &m,
                                                     size_t first, int valid,
                                                     bool vec,
                                                     unsigned char *heads) {
    constexpr int STEPS = Warp::WARP_ITEMS / (4 * WARP_THREADS);
    const int lane = lane_id();
    unsigned *heads4 = reinterpret_cast<unsigned *>(heads);
    if (vec && m.flag_bytes == 1) {
      const unsigned *f = static_cast<const unsigned *>(m.flags) + first / 4;
#pragma unroll
      for (int k = 0; k < STEPS; ++k)
        heads4[k * WARP_THREADS + lane] =
            nonzero_bytes(f[k * WARP_THREADS + lane]);
    } else if (vec && m.flag_bytes == 4) {
      const uint4 *f = reinterpret_cast<const uint4 *>(
          static_cast<const unsigned *>(m.flags) + first);
#pragma unroll
      for (int k = 0; k < STEPS; ++k) {
        const uint4 x = f[k * WARP_THREADS + lane];
        heads4[k * WARP_THREADS + lane] =
            unsigned(x.x != 0) | unsigned(x.y != 0) << 8 |
            unsigned(x.z != 0) << 16 | unsigned(x.w != 0) << 24;
      }
    } else if (vec) {
      const ulonglong2 *f = reinterpret_cast<const ulonglong2 *>(
          static_cast<const unsigned long long *>(m.flags) + first);
      unsigned short *heads2 = reinterpret_cast<unsigned short *>(heads);
#pragma unroll
      for (int k = 0; k < 2 * STEPS; ++k) {
        const ulonglong2 x = f[k * WARP_THREADS + lane];
        heads2[k * WARP_THREADS + lane] =
            (unsigned short)(unsigned(x.x != 0) | unsigned(x.y != 0) << 8);
      }
    } else {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        const int i = k * WARP_THREADS + lane;
        bool f = false;
        if (i < valid) {
          const size_t g = first + i;
          f = m.flag_bytes == 1 ? static_cast<const uint8_t *>(m.flags)[g] != 0
              : m.flag_bytes == 4
                  ? static_cast<const uint32_t *>(m.flags)[g] != 0
                  : static_cast<const uint64_t *>(m.flags)[g] != 0;
        }
        heads[i] = f;
      }
    }
  }

  /* ITEMS bits of a bitmap from bit `at` (a word past the last is read:
   * the bitmaps end with a zero word). */
  static __device__ __forceinline__ unsigned bits_at(const unsigned *words,
                                                     size_t at) {
    const size_t q = at >> 5;
    const unsigned long long two = words[q] | (unsigned long long)words[q + 1]
                                                  << 32;
    return unsigned(two >> (at & 31)) & ITEM_MASK;
  }

  /* The marks of this thread's items: bit j of *start_bits (a head or a
   * segment start) and of *end_bits (a segment end). */
  static __device__ __forceinline__ void
  load_marks(const MarkSource &m, size_t n, size_t base, int valid, Smem &s,
             unsigned &start_bits, unsigned &end_bits) {
    end_bits = 0;
    if (m.starts) {
      // Bitmaps: bits past n are zero and a zero word follows the last.
      const size_t at = base + size_t(threadIdx.x) * ITEMS;
      start_bits = at < n ? bits_at(m.starts, at) : 0u;
      end_bits = at < n ? bits_at(m.ends, at) : 0u;
      return;
    }
    const size_t first = base + size_t(warp_id()) * Warp::WARP_ITEMS;
    unsigned char *heads = s.heads[warp_id()];
    const int wv = warp_valid(valid);
    __syncwarp(); // a previous tile's reads of heads are done
    stage_flags(m, first, wv, m.aligned && wv == Warp::WARP_ITEMS, heads);
    __syncwarp();
    // The thread's ITEMS bytes, four at a time: a multiply gathers the low
    // bit of each byte into four adjacent bits.
    const unsigned *mine =
        reinterpret_cast<const unsigned *>(heads + lane_id() * ITEMS);
    start_bits = 0;
#pragma unroll
    for (int q = 0; q < ITEMS / 4; ++q)
      start_bits |= ((mine[q] * 0x01020408u) >> 24 & 0xfu) << (4 * q);
    if (first + size_t(lane_id()) * ITEMS == 0)
      start_bits |= 1u; // element 0 starts a segment
  }

  static __device__ __forceinline__ unsigned mark(unsigned start_bits,
                                                  unsigned end_bits, int j) {
    return (start_bits >> j) & 1u ? unsigned(SEG_START)
           : (end_bits >> j) & 1u ? unsigned(SEG_END)
                                  : unsigned(SEG_NONE);
  }

  static __device__ __forceinline__ Pair reduce_items(const T (&items)[ITEMS],
                                                      unsigned start_bits,
                                                      unsigned end_bits) {
    Pair p = S::template none<T>();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      p = S::push(p, items[j], mark(start_bits, end_bits, j));
    return p;
  }

  /* Replaces items by their scan from carry; returns the items inside a
   * segment (pair kind SEG_START), one bit each. */
  static __device__ __forceinline__ unsigned
  scan_items(T (&items)[ITEMS], Pair carry, unsigned start_bits,
             unsigned end_bits, bool exclusive) {
    unsigned keep = 0;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const unsigned m = mark(start_bits, end_bits, j);
      const T before = m ? Op::identity() : carry.value;
      carry = S::push(carry, items[j], m);
      items[j] = exclusive ? before : carry.value;
      keep |= unsigned(carry.kind == SEG_START) << j;
    }
    return keep;
  }

  /* Stores the items marked in keep (all, by flags) to out. */
  static __device__ __forceinline__ void store(T *out, size_t base, int valid,
                                               bool aligned, bool all, Smem &s,
                                               const T (&items)[ITEMS],
                                               unsigned keep) {
    const int warp = warp_id(), lane = lane_id();
    const int wv = warp_valid(valid);
    T *dst = out + base + warp * Warp::WARP_ITEMS;
    if (all) {
      Warp::store(dst, wv, aligned && wv == Warp::WARP_ITEMS, s.transpose[warp],
                  items);
      return;
    }
    T *smem = s.transpose[warp];
    __syncwarp(); // the load's blocked reads of smem are done
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      smem[Warp::slot(lane * ITEMS + j)] = items[j];
    s.keep[warp][lane] = keep;
    __syncwarp();
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * WARP_THREADS + lane;
      if (i < wv && (s.keep[warp][i / ITEMS] >> (i % ITEMS)) & 1u)
        dst[i] = smem[Warp::slot(i)];
    }
  }
};

/*
 * seg_scan_lookback: one tile of TILE_ITEMS elements per block.
 * Ownership: the block owns the tile whose id it draws from the ticket
 * (every tile it waits for belongs to a running block); each thread owns
 * ITEMS_PER_THREAD consecutive elements and their marks.
 * Partials meet: items -> thread pair (serial) -> block segmented scan
 * (shuffles, one shared pair per warp) -> the tile's pair in the tile
 * status; warp 0 looks back for the pair before the tile (not when the
 * tile's first element is marked) and publishes the inclusive one.
 * Traffic: each element read once and written once (by offsets: written
 * only inside segments), 128-bit coalesced where aligned; the flags read
 * once coalesced (or n / 16 bytes of bitmaps); per tile, a few status
 * words.
 */
template <class T, prism_op OP>
__global__ void
__launch_bounds__(SegScanPolicy<T>::BLOCK_THREADS,
                  min_blocks_for_arch(SegScanPolicy<T>::MIN_BLOCKS_PER_SM,
                                      SegScanPolicy<T>::BLOCK_THREADS))
    seg_scan_lookback(const T *in, T *out, size_t n, bool exclusive,
                      bool aligned, MarkSource marks, SegStatus<T> status,
                      unsigned *ticket) {
  using K = SegTileScan<T, OP>;
  using P = typename K::P;
  __shared__ typename K::Smem s;

  const unsigned tile = draw_tile(ticket, s.tile);
  const size_t base = size_t(tile) * P::TILE_ITEMS;
  const int valid = int(min(size_t(P::TILE_ITEMS), n - base));

  T items[K::ITEMS];
  unsigned start_bits, end_bits;
  K::load(in, base, valid, aligned, s, items);
  K::load_marks(marks, n, base, valid, s, start_bits, end_bits);
  if (threadIdx.x == 0)
    s.first_marked = (start_bits | end_bits) & 1u;
  typename K::Pair aggregate;
  typename K::Pair before =
      block_seg_exclusive_scan<typename K::Op, P::BLOCK_THREADS>(
          K::reduce_items(items, start_bits, end_bits), s.warp_slots,
          &aggregate);

  if (warp_id() == 0) {
    const bool pause = gridDim.x >= SEG_LOOKBACK_PAUSE_MIN_TILES;
    const typename K::Pair p = lookback<SegLookback<typename K::Op, T>>(
        status, tile, aggregate, !s.first_marked,
        pause ? SEG_LOOKBACK_FIRST_NS : 0, pause ? SEG_LOOKBACK_SPIN_NS : 0);
    if (threadIdx.x == 0)
      s.tile_prefix = p;
  }
  __syncthreads();
  before = K::S::combine(s.tile_prefix, before);

  const unsigned keep =
      K::scan_items(items, before, start_bits, end_bits, exclusive);
  K::store(out, base, valid, aligned, marks.starts == nullptr, s, items, keep);
}

/*
 * seg_scan_single_block: the whole input, of at most
 * SINGLE_BLOCK_MAX_TILES tiles. Ownership: the one block walks the tiles
 * in order, each as in seg_scan_lookback. Partials meet: the block scan of
 * each tile, then a running pair from tile to tile in registers. No tile
 * status, no ticket, one launch (after seg_mark, by offsets).
 */
template <class T, prism_op OP>
__global__ void __launch_bounds__(SegScanPolicy<T>::BLOCK_THREADS)
    seg_scan_single_block(const T *in, T *out, size_t n, bool exclusive,
                          bool aligned, MarkSource marks) {
  using K = SegTileScan<T, OP>;
  using P = typename K::P;
  __shared__ typename K::Smem s;

  typename K::Pair carry = K::S::template none<T>();
  for (size_t base = 0; base < n; base += P::TILE_ITEMS) {
    const int valid = int(min(size_t(P::TILE_ITEMS), n - base));
    T items[K::ITEMS];
    unsigned start_bits, end_bits;
    K::load(in, base, valid, aligned, s, items);
    K::load_marks(marks, n, base, valid, s, start_bits, end_bits);
    typename K::Pair aggregate;
    const typename K::Pair before =
        block_seg_exclusive_scan<typename K::Op, P::BLOCK_THREADS>(
            K::reduce_items(items, start_bits, end_bits), s.warp_slots,
            &aggregate);
    const unsigned keep = K::scan_items(items, K::S::combine(carry, before),
                                        start_bits, end_bits, exclusive);
    K::store(out, base, valid, aligned, marks.starts == nullptr, s, items,
             keep);
    carry = K::S::combine(carry, aggregate);
    __syncthreads(); // the next tile's block scan rewrites warp_slots
  }
}

/* ---- reduce ------------------------------------------------------------- */

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

unsigned offset_code(prism_type t) {
  return (t == PRISM_I32 || t == PRISM_I64 ? OFFSET_SIGNED : 0u) |
         (t == PRISM_U64 || t == PRISM_I64 ? OFFSET_WIDE : 0u);
}

/* Brings a checked call's first bad segment (~s, 0 for none) back. */
prism_status read_first_bad(prism_context *ctx, prism__cuda_ctx *c,
                            const unsigned long long *word, size_t *first_bad) {
  PRISM_CUDA_TRY(ctx, cudaMemcpyAsync, c->host_result, word, sizeof *word,
                 cudaMemcpyDeviceToHost, c->stream);
  PRISM_CUDA_TRY(ctx, cudaStreamSynchronize, c->stream);
  unsigned long long found = 0;
  memcpy(&found, c->host_result, sizeof found);
  *first_bad = found == 0 ? SIZE_MAX : size_t(~found);
  return PRISM_OK;
}

/* seg_mark over every segment, in launches of at most SEG_MARK_CHUNK. */
prism_status launch_mark(prism_context *ctx, prism__cuda_ctx *c,
                         const prism__segmented_args *a, unsigned *starts,
                         unsigned *ends, unsigned long long *first_bad) {
  const unsigned code = offset_code(a->offset_type);
  for (size_t base = 0; base < a->num_segments; base += SEG_MARK_CHUNK) {
    const size_t count = a->num_segments - base < SEG_MARK_CHUNK
                             ? a->num_segments - base
                             : SEG_MARK_CHUNK;
    const size_t blocks = (count + SEG_MARK_THREADS - 1) / SEG_MARK_THREADS;
    seg_mark<<<unsigned(blocks), SEG_MARK_THREADS, 0, c->stream>>>(
        a->offsets, code, a->num_segments, a->n, base, starts, ends, first_bad);
    prism_status st = prism__cuda_check_launch(ctx, "seg_mark");
    if (st != PRISM_OK)
      return st;
  }
  return PRISM_OK;
}

/*
 * Scans. Scratch, one request, zeroed by one memset:
 *   [ticket, first_bad | status aggregate | status prefix | starts | ends]
 * The bitmaps (n / 32 + 1 words each) by offsets only; the status past
 * the single-block sizes only.
 */
template <class T, prism_op OP>
prism_status run_scan(prism_context *ctx, prism__cuda_ctx *c,
                      const prism__segmented_args *a) {
  using P = SegScanPolicy<T>;
  using Status = SegStatus<T>;
  const T *in = static_cast<const T *>(a->in);
  T *out = static_cast<T *>(a->out);
  const size_t n = a->n;
  const bool exclusive = a->kind == PRISM_EXCLUSIVE;
  const bool by_offsets = a->offsets != NULL;
  const bool aligned = (uintptr_t(in) | uintptr_t(out)) % VECTOR_BYTES == 0;
  const size_t num_tiles = (n + P::TILE_ITEMS - 1) / P::TILE_ITEMS;
  const bool single = num_tiles <= P::SINGLE_BLOCK_MAX_TILES;
  if (num_tiles > size_t(INT32_MAX))
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "segmented scan of %zu elements: more than 2^31 tiles",
                       n);

  const size_t status_words = single ? 0 : num_tiles * Status::STATUS_WORDS;
  const size_t control_bytes = prism__cuda_align(16);
  const size_t status_bytes =
      prism__cuda_align(2 * status_words * sizeof(unsigned long long));
  const size_t bitmap_bytes =
      by_offsets ? prism__cuda_align((n / 32 + 2) * sizeof(unsigned)) : 0;
  const size_t bytes = control_bytes + status_bytes + 2 * bitmap_bytes;
  MarkSource marks = {a->flags, unsigned(prism_type_size(a->flag_type)),
                      uintptr_t(a->flags) % VECTOR_BYTES == 0, nullptr,
                      nullptr};
  unsigned char *scratch = NULL;
  if (!single || by_offsets) {
    void *native = NULL;
    prism_status st = prism__scratch(ctx, bytes, &native);
    if (st != PRISM_OK)
      return st;
    scratch = static_cast<unsigned char *>(native);
    PRISM_CUDA_TRY(ctx, cudaMemsetAsync, scratch, 0, bytes, c->stream);
  }
  unsigned *ticket = reinterpret_cast<unsigned *>(scratch);
  unsigned long long *first_bad =
      scratch ? reinterpret_cast<unsigned long long *>(scratch + 8) : nullptr;
  if (by_offsets) {
    unsigned *starts =
        reinterpret_cast<unsigned *>(scratch + control_bytes + status_bytes);
    unsigned *ends = starts + bitmap_bytes / sizeof(unsigned);
    prism_status st = launch_mark(ctx, c, a, starts, ends,
                                  a->first_bad ? first_bad : nullptr);
    if (st != PRISM_OK)
      return st;
    marks = MarkSource{nullptr, 0, false, starts, ends};
  }

  if (single) {
    seg_scan_single_block<T, OP><<<1, P::BLOCK_THREADS, 0, c->stream>>>(
        in, out, n, exclusive, aligned, marks);
    prism_status st = prism__cuda_check_launch(ctx, "seg_scan_single_block");
    if (st != PRISM_OK)
      return st;
  } else {
    Status status;
    status.aggregate =
        reinterpret_cast<unsigned long long *>(scratch + control_bytes);
    status.prefix = status.aggregate + status_words;
    seg_scan_lookback<T, OP>
        <<<unsigned(num_tiles), P::BLOCK_THREADS, 0, c->stream>>>(
            in, out, n, exclusive, aligned, marks, status, ticket);
    prism_status st = prism__cuda_check_launch(ctx, "seg_scan_lookback");
    if (st != PRISM_OK)
      return st;
  }
  if (!a->first_bad)
    return PRISM_OK;
  return read_first_bad(ctx, c, first_bad, a->first_bad);
}

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

  const T *in = static_cast<const T *>(a->in);
  T *out = static_cast<T *>(a->out);
  const unsigned code = offset_code(a->offset_type);
  const bool checked = a->first_bad != NULL;
  // The two status arrays lie back to back: search thread t clears words
  // [t, t + 1) * 2 * STATUS_WORDS of the pair.
  const size_t search_blocks =
      (num_tiles + 1 + SEG_MARK_THREADS - 1) / SEG_MARK_THREADS;
  seg_reduce_search<<<unsigned(search_blocks), SEG_MARK_THREADS, 0,
                      c->stream>>>(a->offsets, code, a->n, a->num_segments,
                                   unsigned(num_tiles), P::TILE_ITEMS, splits,
                                   status.aggregate, 2 * Status::STATUS_WORDS,
                                   control);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_search")) != PRISM_OK)
    return st;
  seg_reduce_tiles<T, OP>
      <<<unsigned(num_tiles), P::BLOCK_THREADS, 0, c->stream>>>(
          in, a->n, a->offsets, code, a->num_segments, out, splits, status,
          control, checked);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_tiles")) != PRISM_OK)
    return st;
  size_t blocks = size_t(c->sm_count) * P::FALLBACK_BLOCKS_PER_SM;
  if (blocks > a->num_segments)
    blocks = a->num_segments;
  seg_reduce_segments<T, OP>
      <<<unsigned(blocks), P::BLOCK_THREADS, 0, c->stream>>>(
          in, a->n, a->offsets, code, a->num_segments, out, control, checked);
  if ((st = prism__cuda_check_launch(ctx, "seg_reduce_segments")) != PRISM_OK)
    return st;
  if (!checked)
    return PRISM_OK;
  return read_first_bad(ctx, c, &control->first_bad, a->first_bad);
}

} // namespace
} // namespace prism_cuda

extern "C" prism_status
prism__cuda_segmented(prism_context *ctx, const prism__segmented_args *args) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  if (args->first_bad)
    *args->first_bad = SIZE_MAX;
  if (!args->reduce && args->n == 0) // core answers n = 0 itself
    return PRISM_OK;
  return prism_cuda::dispatch_type_op(ctx, args->type, args->op, [&](auto tag) {
    using Tag = decltype(tag);
    using T = typename Tag::type;
    return args->reduce ? prism_cuda::run_reduce<T, Tag::op>(ctx, c, args)
                        : prism_cuda::run_scan<T, Tag::op>(ctx, c, args);
  });
}
