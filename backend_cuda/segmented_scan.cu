/* SPDX-License-Identifier: MIT */
/*
 * Segmented scan, by head flags or by offsets: a single pass with
 * decoupled look-back over tiles, as scan.cu, with the segmented operator
 * on (value, kind) pairs (segmented_op.cuh): a tile whose pair has a mark
 * publishes its inclusive prefix at once, so a look-back stops at the
 * nearest tile holding a head; a tile whose first element is a head waits
 * for nothing. ~2n element moves plus the flags. By offsets, seg_mark
 * first turns the offsets into two bitmaps of n bits in scratch, segment
 * starts and ends (warp-combined atomicOr), and the same scan reads bits
 * where the scan by flags reads flags; elements whose pair has no start
 * (outside every segment) are not written. The bitmaps cost n / 4 bytes of
 * traffic, and make any offsets, even decreasing ones, mean what prism.h
 * says.
 *
 * Phases (kernels_cl/segmented.cl uses the same names): seg_mark;
 * seg_scan_lookback (seg_scan_single_block for inputs of a few tiles).
 */
#include "dispatch.cuh"
#include "segmented.cuh"
#include "segmented_status.cuh"
#include "tile_io.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* No bitmap word (seg_mark lanes with nothing to set). */
constexpr unsigned long long NO_WORD = ~0ull;

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

/* Where a tile's marks come from: flags (flag_bytes each), or the bitmaps
 * of seg_mark (starts non-null). */
struct MarkSource {
  const void *flags;
  unsigned flag_bytes;
  bool aligned; // flags on their vector's boundary (see run_scan)
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
   * start on their vector's boundary (4 bytes for u8 flags, 16 for wider:
   * MarkSource::aligned), so each lane loads four flags at a time (two of
   * 8 bytes), coalesced; else one flag per lane and step. */
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

/* ---- host --------------------------------------------------------------- */

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
        prism__cuda_ptr(a->offsets), code, a->num_segments, a->n, base, starts,
        ends, first_bad);
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
  const T *in = mem_ptr<const T>(a->in);
  T *out = mem_ptr<T>(a->out);
  const size_t n = a->n;
  const bool exclusive = a->kind == PRISM_EXCLUSIVE;
  const bool by_offsets = a->offsets.native != NULL;
  // WarpTile's 128-bit loads of in and stores to out need both on a 16-byte
  // boundary (whole buffers are; a view need only be element-aligned);
  // warp slices start whole vectors after it. Otherwise element by element.
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
  // stage_flags' vector path reads each lane's four flags as one access:
  // 4 bytes for u8 flags, 16 (uint4, ulonglong2) for wider ones, so flags
  // must start on that boundary; a warp's slice starts a multiple of 128
  // flags after it.
  const void *flags = prism__cuda_ptr(a->flags);
  const size_t flag_bytes = prism_type_size(a->flag_type);
  const uintptr_t flag_vector = flag_bytes == 1 ? 4 : VECTOR_BYTES;
  MarkSource marks = {flags, unsigned(flag_bytes),
                      uintptr_t(flags) % flag_vector == 0, nullptr, nullptr};
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

} // namespace

prism_status segmented_scan(prism_context *ctx, prism__cuda_ctx *c,
                            const prism__segmented_args *a) {
  return dispatch_type_op(ctx, a->type, a->op, [&](auto tag) {
    using Tag = decltype(tag);
    return run_scan<typename Tag::type, Tag::op>(ctx, c, a);
  });
}

} // namespace prism_cuda
