/* SPDX-License-Identifier: MIT */
/*
 * A tile of the stream compaction (select.cu): the selection rules
 * (Predicate for select_if and partition_if; flags; unique's comparison
 * with the element before), the loads, and the per-tile work both
 * compaction kernels share (TileSelect): load and select (a bit per
 * element), exchange (kept elements, then rejected ones, packed in order
 * in shared memory), store (contiguous runs, coalesced).
 */
#ifndef PRISM_BACKEND_CUDA_SELECT_TILE_CUH
#define PRISM_BACKEND_CUDA_SELECT_TILE_CUH

#include "block.cuh"
#include "ops.cuh"
#include "tile_io.cuh"

#include <cuda/std/type_traits>
#include <stdint.h>
#include <string.h>

namespace prism_cuda {
namespace {

/* Elements (and flags) as raw bits of their width where only equality
 * with 0 or moving is needed: fewer instantiations, same results. */
template <size_t BYTES>
using Bits = cuda::std::conditional_t<
    BYTES == 1, uint8_t,
    cuda::std::conditional_t<BYTES == 4, uint32_t, uint64_t>>;

/*
 * select_if's predicate as a truth table over how x compares with a:
 * outcome = (x < a) | (x == a) << 1 | (x > a) << 2, which is 0 only when
 * x or a is NaN; bit outcome of keep says whether that outcome keeps x.
 * IN_RANGE keeps outcomes 2 and 4 (a <= x) and also needs x <= b. This
 * gives IEEE-754 semantics: NaN fails everything but NOT_EQUAL, and -0.0
 * equals +0.0.
 */
template <class T> struct Predicate {
  T a, b;
  unsigned keep;
  bool range;

  __device__ __forceinline__ bool operator()(T x) const {
    const unsigned outcome =
        unsigned(x < a) | unsigned(x == a) << 1 | unsigned(x > a) << 2;
    return ((keep >> outcome) & 1u) && (!range || x <= b);
  }
};

template <class T> Predicate<T> make_predicate(const prism_predicate &p) {
  static const unsigned keep[] = {
      1u << 1,                     // LESS
      1u << 1 | 1u << 2,           // LESS_EQUAL
      1u << 4,                     // GREATER
      1u << 2 | 1u << 4,           // GREATER_EQUAL
      1u << 2,                     // EQUAL
      1u << 0 | 1u << 1 | 1u << 4, // NOT_EQUAL
      1u << 2 | 1u << 4,           // IN_RANGE: a <= x, and x <= b
  };
  Predicate<T> pred;
  memcpy(&pred.a, &p.a, sizeof(T)); // the union's member of type T
  memcpy(&pred.b, &p.b, sizeof(T));
  pred.keep = keep[p.compare];
  pred.range = p.compare == PRISM_IN_RANGE;
  return pred;
}

/* Shifts v up one lane (lane 0 gets its own back). */
template <class T> __device__ __forceinline__ T shfl_up_one(T v) {
  if constexpr (sizeof(T) == 1)
    return T(__shfl_up_sync(FULL_MASK, unsigned(v), 1));
  else
    return __shfl_up_sync(FULL_MASK, v, 1);
}

/*
 * A thread's ITEMS consecutive elements loaded directly ("blocked direct"),
 * in vectors of up to 16 bytes: for bytes (one 16-byte vector per thread,
 * so a warp reads 512 contiguous bytes) and for flags (the warp's vectors
 * cover a contiguous range; L1 merges the halves of each sector).
 */
template <class T, int ITEMS> struct ThreadTile {
  static constexpr int BYTES = ITEMS * int(sizeof(T));
  static constexpr int VEC_BYTES = BYTES % 16 == 0  ? 16
                                   : BYTES % 8 == 0 ? 8
                                   : BYTES % 4 == 0 ? 4
                                                    : int(sizeof(T));
  static constexpr int VEC_ITEMS = VEC_BYTES / int(sizeof(T));
  struct alignas(VEC_BYTES) Vec {
    T v[VEC_ITEMS];
  };

  /* Loads src[0, valid) into items; the rest get fill. vec: src is
   * VEC_BYTES-aligned and valid == ITEMS. Callers pass vec only when the
   * array's base is 16-byte aligned (run_select checks the actual
   * pointers: a view is only element-aligned); a thread's run starts a
   * multiple of BYTES, itself of VEC_BYTES, after it. */
  static __device__ __forceinline__ void load(const T *src, int valid, bool vec,
                                              T fill, T (&items)[ITEMS]) {
    if (vec) {
      const Vec *vsrc = reinterpret_cast<const Vec *>(src);
#pragma unroll
      for (int k = 0; k < ITEMS / VEC_ITEMS; ++k) {
        const Vec x = vsrc[k];
#pragma unroll
        for (int c = 0; c < VEC_ITEMS; ++c)
          items[k * VEC_ITEMS + c] = x.v[c];
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        items[j] = j < valid ? src[j] : fill;
    }
  }
};

/* Shared memory of the element load: the warp transpose of tile_io.cuh for
 * 4- and 8-byte elements, none for bytes (ThreadTile). */
template <class T, int ITEMS, int WARPS, bool TRANSPOSE = (sizeof(T) >= 4)>
struct ElementLoad {
  using Warp = WarpTile<T, ITEMS>;
  struct Storage {
    T slice[WARPS][Warp::SMEM_ITEMS];
  };
};
template <class T, int ITEMS, int WARPS>
struct ElementLoad<T, ITEMS, WARPS, false> {
  struct Storage {};
};

/* The per-tile work both compaction kernels share. MODE: the selection
 * rule; T: the elements (raw bits for FLAGGED); F: the flags (raw bits;
 * unused unless FLAGGED); PARTITION: rejected elements are written too. */
template <prism__select_mode MODE, class T, class F, bool PARTITION>
struct TileSelect {
  using P = SelectPolicy<T>;
  static constexpr int ITEMS = P::ITEMS_PER_THREAD;
  static constexpr int THREADS = P::BLOCK_THREADS;
  static constexpr int WARPS = THREADS / WARP_THREADS;
  static constexpr bool TRANSPOSE = sizeof(T) >= 4;
  using Load = ElementLoad<T, ITEMS, WARPS>;
  using Count = Op<unsigned, PRISM_SUM>;

  struct Smem {
    union {
      typename Load::Storage load; // the element load's transpose
      T exchange[P::TILE_ITEMS];   // kept elements, then rejected ones
    } x;
    unsigned warp_slots[WARPS];     // block_exclusive_scan
    unsigned long long tile_prefix; // look-back result, to all warps
    unsigned tile;                  // ticket, to all warps
  };

  /*
   * Loads the thread's elements [base + t * ITEMS, + ITEMS) of the tile
   * (blocked) into items and returns the selection: bit j set when item j
   * is valid (< valid) and kept.
   */
  static __device__ __forceinline__ unsigned
  select(const T *in, const F *flags, size_t base, int valid, bool aligned,
         const Predicate<T> &pred, Smem &s, T (&items)[ITEMS]) {
    const int first = int(threadIdx.x) * ITEMS;
    const int thread_valid = min(max(valid - first, 0), ITEMS);
    if constexpr (TRANSPOSE) {
      using Warp = typename Load::Warp;
      const int warp = warp_id();
      const int warp_first = warp * Warp::WARP_ITEMS;
      const int warp_valid = min(max(valid - warp_first, 0), Warp::WARP_ITEMS);
      Warp::load(in + base + warp_first, warp_valid,
                 aligned && warp_valid == Warp::WARP_ITEMS, T(0),
                 s.x.load.slice[warp], items);
    } else {
      ThreadTile<T, ITEMS>::load(in + base + first, thread_valid,
                                 aligned && thread_valid == ITEMS, T(0), items);
    }

    unsigned keep = 0;
    if constexpr (MODE == PRISM__SELECT_FLAGGED) {
      F f[ITEMS];
      ThreadTile<F, ITEMS>::load(flags + base + first, thread_valid,
                                 aligned && thread_valid == ITEMS, F(0), f);
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        keep |= unsigned(f[j] != F(0)) << j;
    } else if constexpr (MODE == PRISM__SELECT_IF) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        keep |= unsigned(pred(items[j])) << j;
    } else {
      // The element before the thread's first: the previous lane's last,
      // or, for a warp's first lane, read again from global memory (once
      // per warp, from L1/L2). Element 0 has none and is always kept.
      T prev = shfl_up_one(items[ITEMS - 1]);
      if (lane_id() == 0 && base + first > 0 && thread_valid > 0)
        prev = in[base + first - 1];
      keep = base + first == 0 ? 1u : unsigned(items[0] != prev);
#pragma unroll
      for (int j = 1; j < ITEMS; ++j)
        keep |= unsigned(items[j] != items[j - 1]) << j;
    }
    // Items past valid are neither kept nor rejected.
    return thread_valid == ITEMS ? keep : keep & ((1u << thread_valid) - 1u);
  }

  /* A tile's selection (select) and where it goes: the thread's kept
   * items start at prefix among the tile's tile_kept. */
  struct Ranked {
    unsigned keep, prefix, tile_kept;
  };
  static __device__ __forceinline__ Ranked rank(const T *in, const F *flags,
                                                size_t base, int valid,
                                                bool aligned,
                                                const Predicate<T> &pred,
                                                Smem &s, T (&items)[ITEMS]) {
    Ranked r;
    r.keep = select(in, flags, base, valid, aligned, pred, s, items);
    r.prefix = block_exclusive_scan<Count, THREADS>(unsigned(__popc(r.keep)),
                                                    s.warp_slots, &r.tile_kept);
    return r;
  }

  /*
   * Packs the tile in shared memory: kept elements at [0, tile_kept) in
   * order, rejected ones (PARTITION) at [tile_kept, valid) in order. The
   * thread's kept items start at its exclusive prefix, its rejected ones
   * after the tile's kept count plus the rejected items of the threads
   * before it. The caller has synced since the load.
   */
  static __device__ __forceinline__ void exchange(const T (&items)[ITEMS],
                                                  unsigned keep, int valid,
                                                  unsigned thread_prefix,
                                                  unsigned tile_kept, Smem &s) {
    const int first = int(threadIdx.x) * ITEMS;
    unsigned kept = thread_prefix;
    unsigned rejected = tile_kept + (unsigned(first) - thread_prefix);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      if ((keep >> j) & 1u)
        s.x.exchange[kept++] = items[j];
      else if (PARTITION && first + j < valid)
        s.x.exchange[rejected++] = items[j];
    }
  }

  /*
   * Writes the packed tile, striped (thread t moves slots t, t + THREADS,
   * ...): slot i < tile_kept goes to out[kept_before + i], a rejected slot
   * to out[rejected_at + i - tile_kept]. Two contiguous runs, so the warps'
   * stores coalesce. After a barrier that follows exchange.
   */
  static __device__ __forceinline__ void
  store(T *out, int valid, unsigned tile_kept, size_t kept_before,
        size_t rejected_at, const Smem &s) {
    const int limit = PARTITION ? valid : int(tile_kept);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * THREADS + int(threadIdx.x);
      if (i < limit) {
        const size_t dst = unsigned(i) < tile_kept
                               ? kept_before + size_t(i)
                               : rejected_at + size_t(unsigned(i) - tile_kept);
        out[dst] = s.x.exchange[i];
      }
    }
  }
};

} // namespace
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_SELECT_TILE_CUH */
