/* SPDX-License-Identifier: MIT */
/*
 * Tuning: the constants of every kernel, as plain data apart from the
 * algorithms. A policy is chosen per element type at compile time; the part
 * that depends on the device (grid sizes) is computed from the SM count and
 * the resident threads per SM that context_init queried, and from nothing
 * else, so a given n on a given device always gets the same grid (and float
 * sums the same rounding).
 *
 * Every constant below is a knob, not a law. Those declared with
 * PRISM_CUDA_KNOB(type, NAME, default) (knob.cuh) can be overridden at
 * build time with -DPRISM_CUDA_NAME=value for sweeps (bench/tune-cuda.sh).
 * Their measurements and tuning history are in docs/results/tuning-cuda.md,
 * one section per primitive; a comment here says what a knob trades.
 */
#ifndef PRISM_BACKEND_CUDA_TUNING_CUH
#define PRISM_BACKEND_CUDA_TUNING_CUH

#include "knob.cuh"

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

/* Scan tiles and look-back pauses for 4-byte and 8-byte types: larger tiles
 * trade registers (resident blocks) for fewer look-back steps, pauses trade
 * a tile's latency for L2 bandwidth. See docs/results/tuning-cuda.md#scan. */
PRISM_CUDA_KNOB(int, SCAN_THREADS_4, 128);
PRISM_CUDA_KNOB(int, SCAN_ITEMS_4, 24);
PRISM_CUDA_KNOB(int, SCAN_MIN_BLOCKS_4, 8);
PRISM_CUDA_KNOB(unsigned, LOOKBACK_FIRST_NS_4, 1200);
PRISM_CUDA_KNOB(int, SCAN_THREADS_8, 256);
PRISM_CUDA_KNOB(int, SCAN_ITEMS_8, 8);
PRISM_CUDA_KNOB(int, SCAN_MIN_BLOCKS_8, 4);
PRISM_CUDA_KNOB(unsigned, LOOKBACK_FIRST_NS_8, 1000);
PRISM_CUDA_KNOB(unsigned, LOOKBACK_SPIN_NS, 650);

template <class T> struct ScanPolicy {
  static constexpr bool WIDE = sizeof(T) == 8;
  static constexpr int BLOCK_THREADS = WIDE ? SCAN_THREADS_8 : SCAN_THREADS_4;
  // Items per thread: whole 16-byte vectors, and counts for which the warp
  // transpose (one pad element per 128 bytes) has at most 2-way bank
  // conflicts (16 or 24 for 4-byte types, 8 for 8-byte types).
  static constexpr int ITEMS_PER_THREAD = WIDE ? SCAN_ITEMS_8 : SCAN_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  // Resident blocks per SM the register budget must allow.
  static constexpr int MIN_BLOCKS_PER_SM =
      WIDE ? SCAN_MIN_BLOCKS_8 : SCAN_MIN_BLOCKS_4;
  // Inputs of up to this many tiles are scanned by scan_single_block: one
  // launch, no tile status, no init.
  static constexpr size_t SINGLE_BLOCK_MAX_TILES = 2;
  // Look-back pauses: before the first poll (predecessors launched at about
  // the same time need a moment to publish), and between polls of a window
  // with empty tiles (to leave L2 bandwidth to the tiles doing work). Only
  // when the grid has at least LOOKBACK_PAUSE_MIN_TILES tiles: on small
  // grids they would only add latency. (CUB pauses the same way on sm_70+.)
  static constexpr unsigned LOOKBACK_FIRST_NS =
      WIDE ? LOOKBACK_FIRST_NS_8 : LOOKBACK_FIRST_NS_4;
  static constexpr unsigned LOOKBACK_SPIN_NS = prism_cuda::LOOKBACK_SPIN_NS;
  static constexpr unsigned LOOKBACK_PAUSE_MIN_TILES = 500;
};

constexpr int SCAN_INIT_THREADS = 256;

/* Radix sort (Onesweep, sort.cu): tile shape against registers and
 * resident threads (the pass is latency-bound: ranking, look-back, so the
 * most resident threads win); "wide" policies serve 8-byte keys or values.
 * See docs/results/tuning-cuda.md#radix-sort. */
PRISM_CUDA_KNOB(int, RADIX_BITS, 8);
PRISM_CUDA_KNOB(int, SORT_THREADS_4, 512);
PRISM_CUDA_KNOB(int, SORT_ITEMS_4, 12);
PRISM_CUDA_KNOB(int, SORT_MIN_BLOCKS_4, 2);
PRISM_CUDA_KNOB(int, SORT_THREADS_8, 256);
PRISM_CUDA_KNOB(int, SORT_ITEMS_8, 12);
PRISM_CUDA_KNOB(int, SORT_MIN_BLOCKS_8, 2);
PRISM_CUDA_KNOB(unsigned, SORT_LOOKBACK_NS, 32);
PRISM_CUDA_KNOB(int, SORT_LOOKBACK_WINDOW, 8);
PRISM_CUDA_KNOB(size_t, SORT_PORTION_KEYS, (1u << 28));
PRISM_CUDA_KNOB(int, SORT_HIST_THREADS, 256);
PRISM_CUDA_KNOB(int, SORT_HIST_ITEMS, 16);
PRISM_CUDA_KNOB(int, SORT_HIST_BLOCKS_PER_SM, 4);
PRISM_CUDA_KNOB(int, SORT_HIST_PARTS, 2);
PRISM_CUDA_KNOB(int, SORT_SINGLE_THREADS, 512);
PRISM_CUDA_KNOB(int, SORT_SINGLE_ITEMS_4, 16);
PRISM_CUDA_KNOB(int, SORT_SINGLE_ITEMS_8, 8);

/* Bits of a digit (one pass each), and the digits of a pass. 5..8 bits:
 * a block has at least one thread per digit, and whole warps of digits. */
constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
static_assert(RADIX_BITS >= 5 && RADIX_BITS <= 8, "RADIX_BITS must be 5..8");

/* sort_histogram: a grid-strided pass over the keys; each trip a thread
 * loads HIST_ITEMS keys (coalesced) and counts the digits of every pass in
 * one of HIST_PARTS shared histograms (chosen by warp, to spread atomics on
 * runs of equal keys). */

/* K: the key's bits (uint32_t or uint64_t); V: the value type, or a 1-byte
 * placeholder for keys only. */
template <class K, class V> struct SortPolicy {
  static constexpr bool WIDE = sizeof(K) == 8 || sizeof(V) == 8;
  // sort_onesweep: one tile of BLOCK_THREADS x ITEMS keys per block (each
  // thread holds ITEMS keys, ITEMS ranks and, for pairs, ITEMS values in
  // registers; the tile is staged once through shared memory).
  static constexpr int BLOCK_THREADS = WIDE ? SORT_THREADS_8 : SORT_THREADS_4;
  static constexpr int ITEMS = WIDE ? SORT_ITEMS_8 : SORT_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  static constexpr int MIN_BLOCKS_PER_SM =
      WIDE ? SORT_MIN_BLOCKS_8 : SORT_MIN_BLOCKS_4;
  // Pause between polls of a predecessor's empty status word.
  static constexpr unsigned LOOKBACK_NS = SORT_LOOKBACK_NS;
  // Predecessor status words a digit's look-back loads at once.
  static constexpr int LOOKBACK_WINDOW = SORT_LOOKBACK_WINDOW;
  // Tiles of one sort_onesweep launch: a pass over more keys runs in
  // portions, so the look-back status (8 bytes per tile and digit) stays
  // bounded (~2^28 keys: 128 MiB at 4 K keys a tile).
  static constexpr size_t PORTION_TILES =
      SORT_PORTION_KEYS / TILE_ITEMS > 0 ? SORT_PORTION_KEYS / TILE_ITEMS : 1;
  // sort_single_block: inputs of up to SINGLE_MAX_KEYS keys are sorted by
  // one block in shared memory, every pass in one launch.
  static constexpr int SINGLE_THREADS = SORT_SINGLE_THREADS;
  static constexpr int SINGLE_ITEMS =
      WIDE ? SORT_SINGLE_ITEMS_8 : SORT_SINGLE_ITEMS_4;
  static constexpr int SINGLE_MAX_KEYS = SINGLE_THREADS * SINGLE_ITEMS;

  static_assert(BLOCK_THREADS >= RADIX_DIGITS && SINGLE_THREADS >= RADIX_DIGITS,
                "a sort block needs a thread per digit");
  static_assert(BLOCK_THREADS % WARP_THREADS == 0 &&
                    SINGLE_THREADS % WARP_THREADS == 0,
                "sort blocks are whole warps");
};

constexpr int FILL_BLOCK_THREADS = 256;

/* Gather/scatter (gather_scatter.cu): one element per thread, no loop;
 * bandwidth- and latency-bound (random reads or writes), so plain 256-thread
 * blocks and as many as the element count needs. A launch covers at most
 * MOVE_CHUNK_ELEMENTS elements (2^31 / 256 = 2^23 blocks, well under the
 * 2^31 - 1 limit of gridDim.x); larger n loops launches over chunks. */
constexpr int MOVE_BLOCK_THREADS = 256;
constexpr size_t MOVE_CHUNK_ELEMENTS = size_t(1) << 31;
static_assert(MOVE_BLOCK_THREADS % WARP_THREADS == 0,
              "move blocks are whole warps (the first_bad ballot)");
static_assert(MOVE_CHUNK_ELEMENTS % MOVE_BLOCK_THREADS == 0,
              "move chunks are whole blocks");

/* Stream compaction (select.cu), per element width (1, 4 or 8 bytes): tile
 * shape and look-back pauses trade as the scan's. Items per thread are a
 * multiple of 4 (whole 16-byte vectors of 4- and 8-byte elements, 4-byte
 * ones of bytes) and at most 32 (one bit each in a word). See
 * docs/results/tuning-cuda.md#select. */
PRISM_CUDA_KNOB(int, SELECT_THREADS_1, 256);
PRISM_CUDA_KNOB(int, SELECT_ITEMS_1, 16);
PRISM_CUDA_KNOB(int, SELECT_MIN_BLOCKS_1, 4);
PRISM_CUDA_KNOB(int, SELECT_THREADS_4, 256);
PRISM_CUDA_KNOB(int, SELECT_ITEMS_4, 16);
PRISM_CUDA_KNOB(int, SELECT_MIN_BLOCKS_4, 4);
PRISM_CUDA_KNOB(int, SELECT_THREADS_8, 256);
PRISM_CUDA_KNOB(int, SELECT_ITEMS_8, 8);
PRISM_CUDA_KNOB(int, SELECT_MIN_BLOCKS_8, 4);
PRISM_CUDA_KNOB(unsigned, SELECT_LOOKBACK_FIRST_NS, 1000);
PRISM_CUDA_KNOB(unsigned, SELECT_LOOKBACK_SPIN_NS, 650);
PRISM_CUDA_KNOB(size_t, SELECT_SINGLE_BLOCK_MAX_TILES, 2);
PRISM_CUDA_KNOB(int, SELECT_COUNT_BLOCKS_PER_SM, 8);

template <class T> struct SelectPolicy {
  static constexpr int BYTES = int(sizeof(T));
  static constexpr int BLOCK_THREADS = BYTES == 1   ? SELECT_THREADS_1
                                       : BYTES == 4 ? SELECT_THREADS_4
                                                    : SELECT_THREADS_8;
  static constexpr int ITEMS_PER_THREAD = BYTES == 1   ? SELECT_ITEMS_1
                                          : BYTES == 4 ? SELECT_ITEMS_4
                                                       : SELECT_ITEMS_8;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int MIN_BLOCKS_PER_SM = BYTES == 1   ? SELECT_MIN_BLOCKS_1
                                           : BYTES == 4 ? SELECT_MIN_BLOCKS_4
                                                        : SELECT_MIN_BLOCKS_8;
  // Inputs of up to this many tiles are compacted by select_single_block:
  // one launch, no tile status, no init.
  static constexpr size_t SINGLE_BLOCK_MAX_TILES =
      SELECT_SINGLE_BLOCK_MAX_TILES;
  // Look-back pauses, as ScanPolicy's.
  static constexpr unsigned LOOKBACK_FIRST_NS = SELECT_LOOKBACK_FIRST_NS;
  static constexpr unsigned LOOKBACK_SPIN_NS = SELECT_LOOKBACK_SPIN_NS;
  static constexpr unsigned LOOKBACK_PAUSE_MIN_TILES = 500;

  static_assert(ITEMS_PER_THREAD % 4 == 0 && ITEMS_PER_THREAD <= 32,
                "select items per thread: a multiple of 4, at most 32");
  static_assert(BLOCK_THREADS % WARP_THREADS == 0,
                "select blocks are whole warps");
};

/* select_count (partitions only): a grid-strided count of the kept
 * elements, SELECT_COUNT_UNROLL 16-byte loads in flight per thread, at most
 * SELECT_COUNT_BLOCKS_PER_SM blocks per SM (one wave). */
constexpr int SELECT_COUNT_THREADS = 256;
constexpr int SELECT_COUNT_UNROLL = 4;

/* Histogram (histogram_*.cu): samples in flight and replicas of the counters
 * (fewer atomic collisions) against shared memory and registers. See
 * docs/results/tuning-cuda.md#histogram.
 * - blocks of 256 threads, each thread loading ITEMS samples a trip in
 *   16-byte vectors (32 bytes, 64 bytes, 64 bytes in flight for 1-, 4- and
 *   8-byte samples), counted GROUP_ITEMS at a time (the bins of a group
 *   live in registers; the warp-wide one-bin test runs once a group);
 * - histogram_bytes: one replica of the 256 counters per warp (at most
 *   MAX_REPLICAS), 8 KiB;
 * - histogram_blocks: a block's shared counters (and, for ranged
 *   histograms, edges) take at most SMEM_BYTES; replicas of the counters
 *   take at most REPLICA_BYTES together (1024 bins: 4 replicas, 16 KiB;
 *   4096 bins and more: 1); up to MAX_RANGES bin ranges, beyond that
 *   histogram_atomic;
 * - at most BLOCKS_PER_SM blocks per SM (a wave), MIN_BLOCKS_PER_SM in the
 *   launch bounds (64 registers a thread). */
PRISM_CUDA_KNOB(int, HIST_THREADS, 256);
PRISM_CUDA_KNOB(int, HIST_ITEMS_1, 32);
PRISM_CUDA_KNOB(int, HIST_ITEMS_4, 16);
PRISM_CUDA_KNOB(int, HIST_ITEMS_8, 8);
PRISM_CUDA_KNOB(int, HIST_GROUP_ITEMS, 16);
PRISM_CUDA_KNOB(size_t, HIST_SMEM_BYTES, (96 * 1024));
PRISM_CUDA_KNOB(size_t, HIST_REPLICA_BYTES, (16 * 1024));
PRISM_CUDA_KNOB(int, HIST_MAX_REPLICAS, 8);
PRISM_CUDA_KNOB(int, HIST_MAX_RANGES, 4);
PRISM_CUDA_KNOB(int, HIST_BLOCKS_PER_SM, 8);
PRISM_CUDA_KNOB(int, HIST_MIN_BLOCKS_PER_SM, 4);

/* T: the sample type. */
template <class T> struct HistPolicy {
  static constexpr int BLOCK_THREADS = HIST_THREADS;
  static constexpr int ITEMS = sizeof(T) == 1   ? HIST_ITEMS_1
                               : sizeof(T) == 4 ? HIST_ITEMS_4
                                                : HIST_ITEMS_8;
  static constexpr int GROUP =
      ITEMS < HIST_GROUP_ITEMS ? ITEMS : HIST_GROUP_ITEMS;
  static constexpr size_t TILE_ITEMS = size_t(BLOCK_THREADS) * ITEMS;
  static_assert(ITEMS % (VECTOR_BYTES / int(sizeof(T))) == 0,
                "histogram items fill whole 16-byte vectors");
  static_assert(ITEMS % GROUP == 0, "histogram items are whole groups");
  static_assert(BLOCK_THREADS % WARP_THREADS == 0,
                "histogram blocks are whole warps");
};

/* Segmented scan and reduce (segmented_*.cu): tile shapes against registers
 * (4-byte scan tiles hold 16 items, not the scan's 24, which spill at 8
 * blocks per SM: pairs and marks take registers the plain scan does not
 * need) and shared memory (a reduce merge item is an element or a segment
 * bound); look-back pauses as the scan's. See
 * docs/results/tuning-cuda.md#segmented. */
PRISM_CUDA_KNOB(int, SEG_SCAN_THREADS_4, 128);
PRISM_CUDA_KNOB(int, SEG_SCAN_ITEMS_4, 16);
PRISM_CUDA_KNOB(int, SEG_SCAN_MIN_BLOCKS_4, 8);
PRISM_CUDA_KNOB(int, SEG_SCAN_THREADS_8, 256);
PRISM_CUDA_KNOB(int, SEG_SCAN_ITEMS_8, 8);
PRISM_CUDA_KNOB(int, SEG_SCAN_MIN_BLOCKS_8, 4);
PRISM_CUDA_KNOB(int, SEG_REDUCE_THREADS, 128);
PRISM_CUDA_KNOB(int, SEG_REDUCE_ITEMS_4, 11);
PRISM_CUDA_KNOB(int, SEG_REDUCE_ITEMS_8, 7);
PRISM_CUDA_KNOB(int, SEG_REDUCE_MIN_BLOCKS, 8);
PRISM_CUDA_KNOB(unsigned, SEG_LOOKBACK_FIRST_NS, 1000);
PRISM_CUDA_KNOB(unsigned, SEG_LOOKBACK_SPIN_NS, 650);

template <class T> struct SegScanPolicy {
  static constexpr bool WIDE = sizeof(T) == 8;
  static constexpr int BLOCK_THREADS =
      WIDE ? SEG_SCAN_THREADS_8 : SEG_SCAN_THREADS_4;
  // Items per thread: whole 16-byte vectors (the warp transpose), a
  // multiple of 4 (flags are staged four bytes at a time), at most 32 (a
  // thread's marks are one 32-bit word).
  static constexpr int ITEMS_PER_THREAD =
      WIDE ? SEG_SCAN_ITEMS_8 : SEG_SCAN_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int MIN_BLOCKS_PER_SM =
      WIDE ? SEG_SCAN_MIN_BLOCKS_8 : SEG_SCAN_MIN_BLOCKS_4;
  // Inputs of up to this many tiles: seg_scan_single_block, one launch.
  static constexpr size_t SINGLE_BLOCK_MAX_TILES = 2;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's marks fill one word");
};

template <class T> struct SegReducePolicy {
  static constexpr int BLOCK_THREADS = SEG_REDUCE_THREADS;
  // Merge items (elements and segment bounds) per thread and tile.
  static constexpr int ITEMS =
      sizeof(T) == 8 ? SEG_REDUCE_ITEMS_8 : SEG_REDUCE_ITEMS_4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  static constexpr int MIN_BLOCKS_PER_SM = SEG_REDUCE_MIN_BLOCKS;
  // seg_reduce_segments (offsets that decrease): blocks per SM.
  static constexpr int FALLBACK_BLOCKS_PER_SM = 4;
};

/* Look-back pauses of both segmented look-backs, as the scan's; only on
 * grids of at least LOOKBACK_PAUSE_MIN_TILES tiles. */
constexpr unsigned SEG_LOOKBACK_PAUSE_MIN_TILES = 500;

/* seg_mark: one thread per segment, in launches of at most
 * SEG_MARK_CHUNK segments (well under the grid limit). */
constexpr int SEG_MARK_THREADS = 256;
constexpr size_t SEG_MARK_CHUNK = size_t(1) << 31;
static_assert(SEG_MARK_THREADS % WARP_THREADS == 0,
              "seg_mark blocks are whole warps (warp-combined atomics)");

/* BFS (bfs.cu, bfs_*.cuh): grid size and team size trade barrier cost
 * against parallelism (a level of a grid graph is a few thousand vertices
 * of degree 4 and a latency-bound chain of loads and atomics: fewer
 * vertices per warp, over more SMs, end it sooner; RMAT's wide bottom-up
 * steps want every warp). See docs/results/tuning-cuda.md#bfs.
 * - blocks of THREADS, at least MIN_BLOCKS resident per SM (launch
 *   bounds); the grid is one full wave (as many blocks as are resident),
 *   or WAVE_PER_SM blocks per SM where that is fewer (fewer blocks meet
 *   sooner at the grid barrier);
 * - COOPERATIVE 1: one persistent cooperative launch runs every level,
 *   with a grid barrier between steps; 0 (or a device that cannot): one
 *   launch per step, queued in batches of FIRST_BATCH, doubling up to
 *   MAX_BATCH, with one read-back of the done flag per batch; batches
 *   below OVERLAP_BATCH wait for their own flag, larger ones are queued
 *   before the flag of the one before is read;
 * - TEAM_BLOCKS: in the persistent launch, a top-down step whose
 *   frontier fits one tile of TEAM_TILE vertices per warp of this many
 *   blocks runs on them alone, with a barrier among them only; the other
 *   blocks wait at the grid barrier until a step does not fit (0: every
 *   step on the whole grid);
 * - GATHER_AHEAD 1: in the persistent launch, after a top-down or
 *   convert step, each warp loads its first tile of the next small
 *   queue and the columns of its first pass while the next state is
 *   derived; 0: only the tile's entries;
 * - top-down: candidates are filtered by a plain load of their bitmap
 *   word before the atomicOr only when the frontier has more than
 *   TD_FILTER_EDGES out-edges (in a small step the load would only add
 *   latency);
 * - top-down: a lane handles TD_ITEMS edges per pass (loads issued
 *   together); vertices of out-degree <= SMALL_DEGREE are expanded 32 at
 *   a time by a warp, load-balanced over their edges; larger ones are cut
 *   into items of 32 x TD_ITEMS edges, one warp pass each;
 * - bottom-up: a lane scans up to BU_THREAD_EDGES in-edges of its vertex
 *   alone, BU_BATCH loads at a time; longer lists are finished by the
 *   whole warp. */
PRISM_CUDA_KNOB(int, BFS_THREADS, 256);
PRISM_CUDA_KNOB(int, BFS_MIN_BLOCKS, 4);
// 0: as many blocks per SM as are resident.
PRISM_CUDA_KNOB(int, BFS_WAVE_PER_SM, 0);
PRISM_CUDA_KNOB(bool, BFS_COOPERATIVE, 1);
PRISM_CUDA_KNOB(unsigned, BFS_FIRST_BATCH, 8);
PRISM_CUDA_KNOB(unsigned, BFS_OVERLAP_BATCH, 32);
PRISM_CUDA_KNOB(unsigned, BFS_MAX_BATCH, 256);
// 0: every step on the whole grid.
PRISM_CUDA_KNOB(unsigned, BFS_TEAM_BLOCKS, 128);
PRISM_CUDA_KNOB(unsigned, BFS_TEAM_TILE, 8);
PRISM_CUDA_KNOB(unsigned long long, BFS_TD_FILTER_EDGES, 65536);
PRISM_CUDA_KNOB(int, BFS_TD_ITEMS, 2);
PRISM_CUDA_KNOB(unsigned, BFS_SMALL_DEGREE, 32);
PRISM_CUDA_KNOB(unsigned, BFS_BU_THREAD_EDGES, 32);
PRISM_CUDA_KNOB(bool, BFS_GATHER_AHEAD, 1);
PRISM_CUDA_KNOB(int, BFS_BU_BATCH, 4);

static_assert(BFS_TEAM_TILE >= 1 && BFS_TEAM_TILE <= 32,
              "a team tile is at most a warp's vertices");
static_assert(BFS_THREADS % WARP_THREADS == 0, "bfs blocks are whole warps");
static_assert(BFS_TD_ITEMS >= 1 && BFS_TD_ITEMS <= 32,
              "bfs top-down items: one bit each in a 32-bit mask");
static_assert(BFS_BU_BATCH >= 1 && BFS_SMALL_DEGREE >= 1,
              "bfs batches and thresholds are positive");

/* SpMV (spmv.cu): a block takes one merge-path tile of SPMV_THREADS x
 * SPMV_ITEMS_<value bytes> items (rows' ends and entries), staged in
 * shared memory (4 + value bytes per item). Larger tiles mean fewer rows
 * split between tiles (each costs a slot pair and a fix-up) and fewer
 * blocks; smaller ones, more blocks resident per SM to hide the gather
 * of x. SPMV_FIX_THREADS: the fix-up launches' blocks (one thread per
 * short split row, one block per long one). */
PRISM_CUDA_KNOB(int, SPMV_THREADS, 256);
PRISM_CUDA_KNOB(int, SPMV_ITEMS_4, 8);
PRISM_CUDA_KNOB(int, SPMV_ITEMS_8, 6);
PRISM_CUDA_KNOB(int, SPMV_FIX_THREADS, 256);

static_assert(SPMV_THREADS % WARP_THREADS == 0 &&
                  SPMV_THREADS <= WARP_THREADS * WARP_THREADS,
              "spmv blocks are whole warps, at most 32 of them");
static_assert(SPMV_FIX_THREADS % WARP_THREADS == 0,
              "spmv fix-up blocks are whole warps");

/* Transpose (transpose.cu): a block of TRANSPOSE_THREADS moves one tile of
 * TRANSPOSE_TILE elements through shared memory: TRANSPOSE_SIDE x
 * TRANSPOSE_SIDE for square-ish matrices, a full row of the short side by
 * TRANSPOSE_TILE / that side for skinny ones (both powers of two), each
 * thread TRANSPOSE_TILE / TRANSPOSE_THREADS loads in flight, registers
 * capped for TRANSPOSE_MIN_BLOCKS blocks per SM. */
PRISM_CUDA_KNOB(int, TRANSPOSE_THREADS, 256);
PRISM_CUDA_KNOB(int, TRANSPOSE_SIDE, 64);
PRISM_CUDA_KNOB(int, TRANSPOSE_TILE, 4096);
PRISM_CUDA_KNOB(int, TRANSPOSE_MIN_BLOCKS, 4);
/* The packed path of 1-, 2- and 4-byte elements (core/backend.h's
 * prism__transpose_pack): tiles of TRANSPOSE_PACKED_TILE blocks of w x w
 * elements, each block w words, TRANSPOSE_PACKED_SIDE on a side. */
PRISM_CUDA_KNOB(int, TRANSPOSE_PACKED_SIDE, 32);
PRISM_CUDA_KNOB(int, TRANSPOSE_PACKED_TILE, 1024);

static_assert(TRANSPOSE_TILE % TRANSPOSE_THREADS == 0 &&
                  TRANSPOSE_SIDE * TRANSPOSE_SIDE == TRANSPOSE_TILE &&
                  (TRANSPOSE_TILE & (TRANSPOSE_TILE - 1)) == 0,
              "transpose tiles: a power of two, square, whole rounds");
static_assert(TRANSPOSE_PACKED_TILE % TRANSPOSE_THREADS == 0 &&
                  TRANSPOSE_PACKED_SIDE * TRANSPOSE_PACKED_SIDE ==
                      TRANSPOSE_PACKED_TILE &&
                  (TRANSPOSE_PACKED_TILE & (TRANSPOSE_PACKED_TILE - 1)) == 0,
              "packed transpose tiles: a power of two, square, whole rounds");

/* Stencils (stencil.cu). 1-D: a block of STENCIL_THREADS computes
 * STENCIL_THREADS x STENCIL_ITEMS_1D points from one staged stretch. 2-D:
 * a block of 32 x STENCIL_ROWS_2D threads computes a tile of 32 x
 * STENCIL_COLS_2D_<value bytes> by STENCIL_ROWS_2D x STENCIL_ITEMS_2D points
 * (COLS x ITEMS each) from the tile and its halo staged in shared memory.
 * 4-byte values take more columns, so a thread keeps as many bytes in
 * flight as with 8-byte ones. Full 2-D boxes of radius 3 and more: a
 * thread computes STENCIL_BOX_ROWS consecutive rows of a column from a
 * window of rows in registers. 3-D (radius <=
 * STENCIL_RING_MAX_R): a block of 32 x STENCIL_ROWS_3D threads marches
 * along z over STENCIL_CHUNK_3D planes of a 32 x (STENCIL_ROWS_3D x
 * STENCIL_ITEMS_3D) column (STENCIL_ITEMS_3D points a plane per thread),
 * keeping the 2r + 1 planes it reads in a ring in shared memory; larger
 * 3-D radii read through the caches, a point per thread. */
PRISM_CUDA_KNOB(int, STENCIL_THREADS, 256);
PRISM_CUDA_KNOB(int, STENCIL_ITEMS_1D, 4);
PRISM_CUDA_KNOB(int, STENCIL_ROWS_2D, 8);
PRISM_CUDA_KNOB(int, STENCIL_ITEMS_2D, 4);
PRISM_CUDA_KNOB(int, STENCIL_COLS_2D_4, 4);
PRISM_CUDA_KNOB(int, STENCIL_COLS_2D_8, 2);
PRISM_CUDA_KNOB(int, STENCIL_BOX_ROWS, 4);
/* 1: stencil_2d sums full boxes of radius 1 and 2 with stencil_2d_box's
 * window of rows (each thread's ITEMS rows consecutive); 0: tap by tap,
 * every tap a load from shared memory. */
PRISM_CUDA_KNOB(int, STENCIL_WINDOW_2D, 0);
PRISM_CUDA_KNOB(int, STENCIL_ROWS_3D, 8);
PRISM_CUDA_KNOB(int, STENCIL_ITEMS_3D, 4);
PRISM_CUDA_KNOB(int, STENCIL_MIN_BLOCKS_3D, 4);
/* Planes the 3-D ring keeps on their way in registers (1: the next one,
 * loaded while the current plane is summed). */
PRISM_CUDA_KNOB(int, STENCIL_AHEAD_3D, 1);
PRISM_CUDA_KNOB(int, STENCIL_CHUNK_3D, 64);
PRISM_CUDA_KNOB(int, STENCIL_RING_MAX_R, 2);

/* Segmented sort (segmented_sort.cu): segments split by length into
 * classes, each its own kernel. A warp ranks a segment of up to
 * 32 x SEGSORT_WARP_ITEMS keys by counting (SEGSORT_WARP_BLOCK_THREADS / 32
 * segments a block); four block tiers sort one segment of up to THREADS x
 * ITEMS keys in shared memory (tier 2 is the sort's single-block tile;
 * tier 3, in dynamic shared memory, only where the device has room for
 * it); a longer segment of up to SEGSORT_GLOBAL_MAX keys takes one block
 * over global memory (the onesweep tile shape), and longer ones the
 * device-wide sort, one after another, unless at least
 * SEGSORT_DEVICE_SPREAD x SMs of them share the call: then each takes a
 * block too. */
PRISM_CUDA_KNOB(int, SEGSORT_CLASSIFY_THREADS, 256);
PRISM_CUDA_KNOB(int, SEGSORT_WARP_ITEMS, 2);
PRISM_CUDA_KNOB(int, SEGSORT_WARP_BLOCK_THREADS, 256);
PRISM_CUDA_KNOB(int, SEGSORT_TIER0_THREADS, 256);
PRISM_CUDA_KNOB(int, SEGSORT_TIER0_ITEMS, 1);
PRISM_CUDA_KNOB(int, SEGSORT_TIER1_THREADS, 256);
PRISM_CUDA_KNOB(int, SEGSORT_TIER1_ITEMS, 4);
PRISM_CUDA_KNOB(int, SEGSORT_TIER3_THREADS, 512);
PRISM_CUDA_KNOB(int, SEGSORT_TIER3_ITEMS_4, 32);
PRISM_CUDA_KNOB(int, SEGSORT_TIER3_ITEMS_8, 16);
PRISM_CUDA_KNOB(size_t, SEGSORT_GLOBAL_MAX, (size_t(1) << 18));
PRISM_CUDA_KNOB(int, SEGSORT_DEVICE_SPREAD, 1);

/* Merge (merge.cu): a block of MERGE_THREADS merges a tile of
 * MERGE_THREADS x MERGE_ITEMS_<key bytes> outputs through shared memory,
 * each thread MERGE_ITEMS consecutive ones (odd counts keep the threads'
 * blocked shared-memory accesses apart in the banks); the partition
 * searches one tile boundary a thread. */
PRISM_CUDA_KNOB(int, MERGE_THREADS, 256);
PRISM_CUDA_KNOB(int, MERGE_ITEMS_4, 15);
PRISM_CUDA_KNOB(int, MERGE_ITEMS_8, 7);
PRISM_CUDA_KNOB(int, MERGE_PARTITION_THREADS, 128);

/* Top-k (topk.cu): a row of at most TOPK_ROWS_THREADS x
 * TOPK_ROWS_ITEMS_<key bytes> keys takes one block (with the WIDE items
 * up to that many); longer rows the select over the device, whose passes
 * run TOPK_PASS_BLOCKS_PER_SM blocks of TOPK_PASS_THREADS per SM, each
 * thread loading TOPK_PASS_ITEMS keys at a time (bytes in flight), with
 * TOPK_DIGIT_BITS-bit digits; a pass keeps candidates when the bucket
 * holds at most cols / TOPK_CAND_DIVISOR keys (at least TOPK_CAND_MIN). */
PRISM_CUDA_KNOB(int, TOPK_ROWS_THREADS, 256);
PRISM_CUDA_KNOB(int, TOPK_ROWS_ITEMS_4, 4);
PRISM_CUDA_KNOB(int, TOPK_ROWS_WIDE_ITEMS_4, 16);
PRISM_CUDA_KNOB(int, TOPK_ROWS_ITEMS_8, 4);
PRISM_CUDA_KNOB(int, TOPK_ROWS_WIDE_ITEMS_8, 8);
PRISM_CUDA_KNOB(int, TOPK_PASS_THREADS, 512);
PRISM_CUDA_KNOB(int, TOPK_PASS_ITEMS, 8);
PRISM_CUDA_KNOB(int, TOPK_PASS_BLOCKS_PER_SM, 2);
PRISM_CUDA_KNOB(int, TOPK_CHOOSE_THREADS, 256);
PRISM_CUDA_KNOB(unsigned, TOPK_DIGIT_BITS, 11);
PRISM_CUDA_KNOB(size_t, TOPK_CAND_DIVISOR, 16);
PRISM_CUDA_KNOB(size_t, TOPK_CAND_MIN, 65536);

} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_TUNING_CUH */
