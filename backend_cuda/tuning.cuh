/*
 * Tuning: the constants of every kernel, as plain data apart from the
 * algorithms. A policy is chosen per element type at compile time; the part
 * that depends on the device (grid sizes) is computed from the SM count and
 * the resident threads per SM that context_init queried, and from nothing
 * else, so a given n on a given device always gets the same grid (and float
 * sums the same rounding).
 *
 * First-guess values, meant to be measured on the target (H200, sm_90):
 * every constant below is a knob, not a law.
 */
#ifndef PRISM_BACKEND_CUDA_TUNING_CUH
#define PRISM_BACKEND_CUDA_TUNING_CUH

#include <stddef.h>

namespace prism_cuda {

constexpr int WARP_THREADS = 32;

/* Bytes of one vectorised global access (uint4 / Vec16). */
constexpr int VECTOR_BYTES = 16;

/* Resident threads per SM of the architecture this device pass compiles for
 * (sm_75: 1024; sm_86, sm_87, sm_89, sm_12x: 1536; others 2048), so launch
 * bounds never ask for more blocks than an SM can hold. The host pass never
 * uses it. */
constexpr int arch_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  return 1024;
#elif defined(__CUDA_ARCH__) &&                                                \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 ||   \
     __CUDA_ARCH__ >= 1200)
  return 1536;
#else
  return 2048;
#endif
}

/* Minimum resident blocks for __launch_bounds__: want, capped by what the
 * architecture being compiled can hold. */
constexpr int min_blocks_for_arch(int want, int block_threads) {
  return want < arch_threads_per_sm() / block_threads
             ? want
             : arch_threads_per_sm() / block_threads;
}

template <class T> struct ReducePolicy {
  static constexpr int BLOCK_THREADS = 256;
  // Resident blocks per SM that the register budget must allow (launch
  // bounds), and the most the grid asks for. 8 fills an sm_80/90 SM (2048
  // threads, 32 registers each); 8-byte MIN/MAX need more registers than
  // that (the float ones spill at 32), and 6 blocks still keep ~96 KiB in
  // flight per SM.
  static constexpr int MIN_BLOCKS_PER_SM = sizeof(T) == 8 ? 6 : 8;
  // Independent 16-byte loads each thread issues per loop trip (and as many
  // accumulators): 64 B in flight per thread, ~128 KiB per SM at full
  // occupancy, comfortably above HBM3e's bandwidth-delay product per SM.
  static constexpr int UNROLL = 4;
  static constexpr int VEC = VECTOR_BYTES / int(sizeof(T));
  static constexpr size_t ITEMS_PER_BLOCK_TRIP =
      size_t(BLOCK_THREADS) * UNROLL * VEC;
  // Up to this many block trips of input, one block does the whole
  // reduction in one launch: there a second launch costs more than the
  // parallelism it buys.
  static constexpr size_t SINGLE_BLOCK_TRIPS = 2;
  static constexpr int FINAL_THREADS = BLOCK_THREADS;
};

/* Blocks of reduce_partials for n elements: as many as fit on the device at
 * once (a whole multiple of the SM count, one wave, so the grid-stride loop
 * gives every block the same work), fewer when n is too small to give each
 * thread a full loop trip; 1 means one launch does everything. */
template <class T>
inline unsigned reduce_grid(int sm_count, int max_threads_per_sm, size_t n) {
  using P = ReducePolicy<T>;
  if (n <= P::SINGLE_BLOCK_TRIPS * P::ITEMS_PER_BLOCK_TRIP)
    return 1;
  int per_sm = max_threads_per_sm / P::BLOCK_THREADS;
  if (per_sm < 1)
    per_sm = 1;
  if (per_sm > P::MIN_BLOCKS_PER_SM)
    per_sm = P::MIN_BLOCKS_PER_SM;
  size_t full = size_t(sm_count) * size_t(per_sm);
  size_t needed = (n + P::ITEMS_PER_BLOCK_TRIP - 1) / P::ITEMS_PER_BLOCK_TRIP;
  return unsigned(needed < full ? needed : full);
}

/* Scan tuning for 4-byte and 8-byte types, overridable at build time (-D)
 * for sweeps (bench/tune-cuda.sh). Measured on the H200 (sm_90) at
 * n = 2^24 and 2^28 against CUB in the same run: for 4-byte types 128
 * threads x 24 items with pauses of 1200/650 ns reach 0.98x CUB (256 x 16
 * reached 0.96x, without pauses 0.86x); for 8-byte types 256 x 8 with
 * 1000/650 ns reach 0.88x (128-thread tiles 0.83x). */
#ifndef PRISM_CUDA_SCAN_THREADS_4
#define PRISM_CUDA_SCAN_THREADS_4 128
#endif
#ifndef PRISM_CUDA_SCAN_ITEMS_4
#define PRISM_CUDA_SCAN_ITEMS_4 24
#endif
#ifndef PRISM_CUDA_SCAN_MIN_BLOCKS_4
#define PRISM_CUDA_SCAN_MIN_BLOCKS_4 8
#endif
#ifndef PRISM_CUDA_LOOKBACK_FIRST_NS_4
#define PRISM_CUDA_LOOKBACK_FIRST_NS_4 1200
#endif
#ifndef PRISM_CUDA_SCAN_THREADS_8
#define PRISM_CUDA_SCAN_THREADS_8 256
#endif
#ifndef PRISM_CUDA_SCAN_ITEMS_8
#define PRISM_CUDA_SCAN_ITEMS_8 8
#endif
#ifndef PRISM_CUDA_SCAN_MIN_BLOCKS_8
#define PRISM_CUDA_SCAN_MIN_BLOCKS_8 4
#endif
#ifndef PRISM_CUDA_LOOKBACK_FIRST_NS_8
#define PRISM_CUDA_LOOKBACK_FIRST_NS_8 1000
#endif
#ifndef PRISM_CUDA_LOOKBACK_SPIN_NS
#define PRISM_CUDA_LOOKBACK_SPIN_NS 650
#endif

template <class T> struct ScanPolicy {
  static constexpr bool WIDE = sizeof(T) == 8;
  static constexpr int BLOCK_THREADS =
      WIDE ? PRISM_CUDA_SCAN_THREADS_8 : PRISM_CUDA_SCAN_THREADS_4;
  // Items per thread: whole 16-byte vectors, and counts for which the warp
  // transpose (one pad element per 128 bytes) has at most 2-way bank
  // conflicts (16 or 24 for 4-byte types, 8 for 8-byte types).
  static constexpr int ITEMS_PER_THREAD =
      WIDE ? PRISM_CUDA_SCAN_ITEMS_8 : PRISM_CUDA_SCAN_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  // Resident blocks per SM the register budget must allow.
  static constexpr int MIN_BLOCKS_PER_SM =
      WIDE ? PRISM_CUDA_SCAN_MIN_BLOCKS_8 : PRISM_CUDA_SCAN_MIN_BLOCKS_4;
  // Inputs of up to this many tiles are scanned by scan_single_block: one
  // launch, no tile status, no init.
  static constexpr size_t SINGLE_BLOCK_MAX_TILES = 2;
  // Look-back pauses: before the first poll (predecessors launched at about
  // the same time need a moment to publish), and between polls of a window
  // with empty tiles (to leave L2 bandwidth to the tiles doing work). Only
  // when the grid has at least LOOKBACK_PAUSE_MIN_TILES tiles: on small
  // grids they would only add latency. (CUB pauses the same way on sm_70+.)
  static constexpr unsigned LOOKBACK_FIRST_NS =
      WIDE ? PRISM_CUDA_LOOKBACK_FIRST_NS_8 : PRISM_CUDA_LOOKBACK_FIRST_NS_4;
  static constexpr unsigned LOOKBACK_SPIN_NS = PRISM_CUDA_LOOKBACK_SPIN_NS;
  static constexpr unsigned LOOKBACK_PAUSE_MIN_TILES = 500;
};

constexpr int SCAN_INIT_THREADS = 256;

/* Radix sort tuning (Onesweep, radix_sort.cu), overridable at build time
 * (-D) for sweeps. First guesses for the H200 (sm_90), not yet measured:
 * CUB's onesweep tiles are 256 x 21 4-byte keys (fewer for 8-byte types)
 * with the registers of 1-2 blocks per SM. Three 256 x 16 blocks per SM
 * (80 registers) spill; two do not. "Wide" policies serve 8-byte keys or
 * 8-byte values, whose tiles must fit the same registers and shared
 * memory. */
#ifndef PRISM_CUDA_RADIX_BITS
#define PRISM_CUDA_RADIX_BITS 8
#endif
#ifndef PRISM_CUDA_SORT_THREADS_4
#define PRISM_CUDA_SORT_THREADS_4 256
#endif
#ifndef PRISM_CUDA_SORT_ITEMS_4
#define PRISM_CUDA_SORT_ITEMS_4 16
#endif
#ifndef PRISM_CUDA_SORT_MIN_BLOCKS_4
#define PRISM_CUDA_SORT_MIN_BLOCKS_4 2
#endif
#ifndef PRISM_CUDA_SORT_THREADS_8
#define PRISM_CUDA_SORT_THREADS_8 256
#endif
#ifndef PRISM_CUDA_SORT_ITEMS_8
#define PRISM_CUDA_SORT_ITEMS_8 12
#endif
#ifndef PRISM_CUDA_SORT_MIN_BLOCKS_8
#define PRISM_CUDA_SORT_MIN_BLOCKS_8 2
#endif
#ifndef PRISM_CUDA_SORT_LOOKBACK_NS
#define PRISM_CUDA_SORT_LOOKBACK_NS 32
#endif
#ifndef PRISM_CUDA_SORT_LOOKBACK_WINDOW
#define PRISM_CUDA_SORT_LOOKBACK_WINDOW 4
#endif
#ifndef PRISM_CUDA_SORT_PORTION_KEYS
#define PRISM_CUDA_SORT_PORTION_KEYS (1u << 28)
#endif
#ifndef PRISM_CUDA_SORT_HIST_THREADS
#define PRISM_CUDA_SORT_HIST_THREADS 256
#endif
#ifndef PRISM_CUDA_SORT_HIST_ITEMS
#define PRISM_CUDA_SORT_HIST_ITEMS 16
#endif
#ifndef PRISM_CUDA_SORT_HIST_BLOCKS_PER_SM
#define PRISM_CUDA_SORT_HIST_BLOCKS_PER_SM 4
#endif
#ifndef PRISM_CUDA_SORT_HIST_PARTS
#define PRISM_CUDA_SORT_HIST_PARTS 2
#endif
#ifndef PRISM_CUDA_SORT_SINGLE_THREADS
#define PRISM_CUDA_SORT_SINGLE_THREADS 512
#endif
#ifndef PRISM_CUDA_SORT_SINGLE_ITEMS_4
#define PRISM_CUDA_SORT_SINGLE_ITEMS_4 16
#endif
#ifndef PRISM_CUDA_SORT_SINGLE_ITEMS_8
#define PRISM_CUDA_SORT_SINGLE_ITEMS_8 8
#endif

/* Bits of a digit (one pass each), and the digits of a pass. 5..8 bits:
 * a block has at least one thread per digit, and whole warps of digits. */
constexpr int RADIX_BITS = PRISM_CUDA_RADIX_BITS;
constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
static_assert(RADIX_BITS >= 5 && RADIX_BITS <= 8, "RADIX_BITS must be 5..8");

/* sort_histogram: a grid-strided pass over the keys; each trip a thread
 * loads HIST_ITEMS keys (coalesced) and counts the digits of every pass in
 * one of HIST_PARTS shared histograms (chosen by warp, to spread atomics on
 * runs of equal keys). */
constexpr int SORT_HIST_THREADS = PRISM_CUDA_SORT_HIST_THREADS;
constexpr int SORT_HIST_ITEMS = PRISM_CUDA_SORT_HIST_ITEMS;
constexpr int SORT_HIST_BLOCKS_PER_SM = PRISM_CUDA_SORT_HIST_BLOCKS_PER_SM;
constexpr int SORT_HIST_PARTS = PRISM_CUDA_SORT_HIST_PARTS;

/* K: the key's bits (uint32_t or uint64_t); V: the value type, or a 1-byte
 * placeholder for keys only. */
template <class K, class V> struct SortPolicy {
  static constexpr bool WIDE = sizeof(K) == 8 || sizeof(V) == 8;
  // sort_onesweep: one tile of BLOCK_THREADS x ITEMS keys per block (each
  // thread holds ITEMS keys, ITEMS ranks and, for pairs, ITEMS values in
  // registers; the tile is staged once through shared memory).
  static constexpr int BLOCK_THREADS =
      WIDE ? PRISM_CUDA_SORT_THREADS_8 : PRISM_CUDA_SORT_THREADS_4;
  static constexpr int ITEMS =
      WIDE ? PRISM_CUDA_SORT_ITEMS_8 : PRISM_CUDA_SORT_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  static constexpr int MIN_BLOCKS_PER_SM =
      WIDE ? PRISM_CUDA_SORT_MIN_BLOCKS_8 : PRISM_CUDA_SORT_MIN_BLOCKS_4;
  // Pause between polls of a predecessor's empty status word.
  static constexpr unsigned LOOKBACK_NS = PRISM_CUDA_SORT_LOOKBACK_NS;
  // Predecessor status words a digit's look-back loads at once.
  static constexpr int LOOKBACK_WINDOW = PRISM_CUDA_SORT_LOOKBACK_WINDOW;
  // Tiles of one sort_onesweep launch: a pass over more keys runs in
  // portions, so the look-back status (8 bytes per tile and digit) stays
  // bounded (~2^28 keys: 128 MiB at 4 K keys a tile).
  static constexpr size_t PORTION_TILES =
      PRISM_CUDA_SORT_PORTION_KEYS / TILE_ITEMS > 0
          ? PRISM_CUDA_SORT_PORTION_KEYS / TILE_ITEMS
          : 1;
  // sort_single_block: inputs of up to SINGLE_MAX_KEYS keys are sorted by
  // one block in shared memory, every pass in one launch.
  static constexpr int SINGLE_THREADS = PRISM_CUDA_SORT_SINGLE_THREADS;
  static constexpr int SINGLE_ITEMS =
      WIDE ? PRISM_CUDA_SORT_SINGLE_ITEMS_8 : PRISM_CUDA_SORT_SINGLE_ITEMS_4;
  static constexpr int SINGLE_MAX_KEYS = SINGLE_THREADS * SINGLE_ITEMS;

  static_assert(BLOCK_THREADS >= RADIX_DIGITS && SINGLE_THREADS >= RADIX_DIGITS,
                "a sort block needs a thread per digit");
  static_assert(BLOCK_THREADS % WARP_THREADS == 0 &&
                    SINGLE_THREADS % WARP_THREADS == 0,
                "sort blocks are whole warps");
};

constexpr int FILL_BLOCK_THREADS = 256;

/* Gather/scatter (move.cu): one element per thread, no loop; bandwidth- and
 * latency-bound (random reads or writes), so plain 256-thread blocks and as
 * many as the element count needs. A launch covers at most
 * MOVE_CHUNK_ELEMENTS elements (2^31 / 256 = 2^23 blocks, well under the
 * 2^31 - 1 limit of gridDim.x); larger n loops launches over chunks. */
constexpr int MOVE_BLOCK_THREADS = 256;
constexpr size_t MOVE_CHUNK_ELEMENTS = size_t(1) << 31;
static_assert(MOVE_BLOCK_THREADS % WARP_THREADS == 0,
              "move blocks are whole warps (the first_bad ballot)");
static_assert(MOVE_CHUNK_ELEMENTS % MOVE_BLOCK_THREADS == 0,
              "move chunks are whole blocks");

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TUNING_CUH */
