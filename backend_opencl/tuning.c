/* SPDX-License-Identifier: MIT */
/* Device policies: the constants, and fitting them to a device. Why each
 * value is what it is stands beside it; the measurements behind them are
 * in docs/results/tuning-opencl.md, a section per primitive. */
#include "env.h"
#include "local_memory.h"
#include "prism.h"
#include "tuning.h"

#include <stdint.h>
#include <stdlib.h>

/*
 * Shapes both policies take. The look-back tiles of the scan, compaction
 * and the segmented primitives: 15 4-byte or 7 8-byte elements per
 * work-item (odd, so the work-item-serial passes over local memory touch
 * every bank once; compaction 31 bytes, one selection bit each), 32
 * predecessors read at once, up to 4 tiles in one work-group and one
 * launch; the segmented reduce merges 11 (4-byte T) or 7 items per
 * work-item. The CPU policy keeps them for when the look-back is forced
 * (tests). The histogram's tile, local-memory and private-table shapes
 * likewise serve whichever strategy a policy forces.
 */
#define LOOKBACK_TILES                                                         \
  .items_4 = 15, .items_8 = 7, .lb_window = 32, .single_tiles = 4
#define SELECT_TILES .items_1 = 31, LOOKBACK_TILES, .count_groups_per_cu = 4
#define SEG_TILES                                                              \
  LOOKBACK_TILES, .merge_items_4 = 11, .merge_items_8 = 7, .mark_segments = 8
#define HIST_SHAPES                                                            \
  .items_1 = 32, .items_4 = 16, .items_8 = 8, .local_bytes = 48 * 1024,        \
  .replica_bytes = 16 * 1024, .max_replicas = 8, .max_ranges = 8,              \
  .chunks_per_cu = 4, .chunk_min = 65536, .copies = 4,                         \
  .copies_bytes = 64 * 1024, .private_bytes = (size_t)64 << 20

/* SpMV's serial tile (CPUs): fewer split rows and work-groups against
 * balance over the cores. */
#define SPMV_CPU_TILE 16384

/* Transpose tiles of 64 x 64 elements (or the short side whole), every
 * element size, as CUDA's TRANSPOSE_SIDE and TRANSPOSE_TILE, 4-byte
 * elements' tile given; fitted to local memory per element size. GPUs add
 * the packed path's tiles of 32 x 32 blocks (CUDA's TRANSPOSE_PACKED_*). */
#define TRANSPOSE_TILES(tile4)                                                 \
  .side = 64, .tile_1 = 4096, .tile_2 = 4096, .tile_4 = (tile4), .tile_8 = 4096

/* The stencil tile kernels' shapes, as CUDA's STENCIL_* knobs: 1-D groups
 * of 256 summing 4 points each; 2-D groups of 32 x 8 over (32 x 4) x 32
 * tiles of 4-byte values, (32 x 2) x 32 of 8-byte ones (as many bytes in
 * flight); full 2-D boxes of every radius in groups of 32 x 8, 8 rows a
 * work-item up to radius 2, 4 beyond; the 3-D ring in groups of 32 x 8
 * over chunks of 64 planes of 32 x (8 x 4) columns, radii 1 and 2; 64
 * groups per compute unit at most. stencil_rows' runs of 4096 points along
 * x: a run's rows for 2r + 1 taps stay in a core's caches. */
#define STENCIL_TILES                                                          \
  .items_1d = 4, .rows_2d = 8, .items_2d = 4, .cols_2d_4 = 4, .cols_2d_8 = 2,  \
  .box_min_r = 3, .box_max_r = PRISM_STENCIL_MAX_RADIUS, .box_rows = 4,        \
  .rows_3d = 8, .items_3d = 4, .chunk_3d = 64, .ring_max_r = 2,                \
  .groups_per_cu = 64, .run = 4096

/* Merge launches: at most 2^30 work-items each, as gather / scatter's. */
#ifndef MERGE_LAUNCH
#define MERGE_LAUNCH ((size_t)1 << 30)
#endif

#ifndef CPU_MERGE_WG
#define CPU_MERGE_WG 64
#define CPU_MERGE_I4 31
#define CPU_MERGE_I8 15
#define CPU_MERGE_PWG 64
#endif

/* Top-k on CPUs: topk_rows' work-group and its two tiles' items, topk_pass'
 * items a round, topk_finish's work-group. */
#ifndef CPU_TOPK_ROWS_WG
#define CPU_TOPK_ROWS_WG 1
#define CPU_TOPK_ROWS_I0 1024
#define CPU_TOPK_ROWS_I1 32768
#define CPU_TOPK_PASS_ITEMS 16
#define CPU_TOPK_FINISH_WG 64
#endif

/* GPUs, aimed at NVIDIA's OpenCL on an H200. */
static const prism__cl_policy gpu_policy = {
    .name = "gpu",
    /* Grid-stride loop with 16-byte loads, 8 work-groups of 256 per
     * compute unit (2048 threads, a full SM). */
    .reduce =
        {
            .wg = 256,
            .vec_bytes = 16,
            .chunked = 0,
            .groups_per_cu = 8,
            .per_group_min = 16384,
        },
    /* Single-pass look-back over tiles of 256 x 15 4-byte (256 x 7
     * 8-byte) elements. The chunk shapes are only a fallback here. */
    .scan =
        {
            .lookback = 1,
            .wg = 256,
            LOOKBACK_TILES,
            .chunk_wg = 64,
            .chunk_vec_bytes = 16,
            .chunks_per_cu = 64,
            .chunk_min = 4096,
        },
    /* Onesweep over tiles of 256 x 15 4-byte keys (256 x 7 8-byte ones),
     * ranked in local memory; the histogram with 4 work-groups per SM; up
     * to 8192 keys in one work-group. */
    .sort =
        {
            .radix_bits = 8,
            .single_max = 8192,
            .wg = 256,
            .items_4 = 15,
            .items_8 = 7,
            .onesweep = 1,
            .hist_groups_per_cu = 4,
            .chunk_wg = 64,
            .chunks_per_cu = 64,
            .chunk_min = 4096,
        },
    /* One element per work-item, groups of 256, so index reads and the
     * contiguous side coalesce. */
    .gather_scatter =
        {
            .wg = 256,
            .launch = (size_t)1 << 30,
        },
    /* Look-back over tiles of 256 work-items, as the scan; a partition
     * counts first with 4 work-groups per SM. */
    .select =
        {
            .lookback = 1,
            .wg = 256,
            SELECT_TILES,
            .chunks_per_cu = 64,
            .chunk_min = 4096,
        },
    /* Work-groups of 256 count 32 bytes (16 4-byte, 8 8-byte samples) per
     * work-item and tile into local counters of up to 48 KiB (replicas,
     * one per warp, up to 16 KiB together; bytes: 256 counters per warp),
     * 8 groups per SM; up to 8 bin ranges, beyond that global atomics.
     * The chunk shapes are used only when forced. */
    .hist =
        {
            .private_tables = 0,
            .wg = 256,
            .groups_per_cu = 8,
            .merge_wg = 256,
            HIST_SHAPES,
        },
    /* Tiles of 256 work-items; the chunk shapes are used only when
     * forced. */
    .seg =
        {
            .lookback = 1,
            .wg = 256,
            SEG_TILES,
            .chunks_per_cu = 64,
            .chunk_min = 4096,
        },
    /* Work-groups of 256, 8 per SM; top-down passes of 4 edges per
     * work-item (items of 1024 edges), small vertices up to 64 out-edges
     * (a group pass per item: larger vertices waste less of it);
     * bottom-up tiles of 8 words (a vertex per work-item), 32 in-edges
     * alone, then the group. */
    .bfs =
        {
            /* The whole search in one launch, as CUDA's: no launch per
             * level, for a fence across groups; the batches below serve
             * devices with a watchdog. */
            .persistent = 1,
            /* Waiting for groups still to arrive (only when fewer run at
             * once than were launched: a context's first search) against
             * starting. */
            .discovery_polls = 1024,
            .wg = 256,
            .groups_per_cu = 8,
            .td_items = 4,
            .chunk_passes = 1,
            .small_degree = 64,
            /* A plain load before each atomic_or only in large steps, as
             * CUDA's: a wasted load where few candidates are visited. */
            .td_filter_edges = 65536,
            .bu_thread_edges = 32,
            .bu_batch = 4,
            .tile_words = 8,
            .contiguous = 0,
            /* Read-backs after 16, 32, ... 256 steps, a batch below 32
             * waiting for its own flag: launches queued past the end
             * against host waits (an RMAT search, about ten steps, is one
             * batch and one wait). */
            .first_batch = 16,
            .max_batch = 256,
            .overlap_batch = 32,
        },
    /* Work-groups of 256 over tiles of 256 x 8 merge items for 4-byte
     * values (256 x 6 for 8-byte ones), as CUDA's SPMV_* knobs; a
     * work-item per short split row. */
    .spmv =
        {
            .serial = 0,
            .wg = 256,
            .items_4 = 8,
            .items_8 = 6,
            .serial_tile = SPMV_CPU_TILE,
            .fix_splits = 1,
        },
    /* Work-groups of 256 move tiles through local memory, 64 groups per
     * SM at most, as CUDA's grid: 32 x 32 blocks on the packed path, else
     * 4096 elements, 16 a work-item in flight, but 2048 of 4 bytes (8 in
     * flight): NVIDIA's compiler keeps every round's address, and at 16
     * rounds took 139 registers (one group an SM; CUDA's launch bounds
     * hold its kernel to 64) and moved 4-byte elements at half CUDA's rate
     * (docs/results/h200-dense.txt). */
    .transpose =
        {
            .blocked = 0,
            .wg = 256,
            TRANSPOSE_TILES(2048),
            .packed_side = 32,
            .packed_tile = 1024,
            .groups_per_cu = 64,
        },
    /* The tile kernels, shaped as CUDA's; 1-D and direct groups of 256. */
    .stencil =
        {
            .rows = 0,
            .wg = 256,
            STENCIL_TILES,
        },
    /* Work-groups of 256 merge tiles of 256 x 15 4-byte keys (256 x 7
     * 8-byte ones) through local memory, as CUDA's MERGE_* knobs (30 KiB
     * of u32 pairs, 21 KiB of 8-byte ones: several groups an SM); the
     * partition searches one boundary a work-item, in groups of 128. */
    .merge =
        {
            .wg = 256,
            .items_4 = 15,
            .items_8 = 7,
            .partition_wg = 128,
            .launch = MERGE_LAUNCH,
        },
    /* Segmented sort: classification in groups of 256; segments of up to
     * 256 keys ranked by a group of 32 (a warp) in local memory, up to
     * 65536 by a group of 256 with the sort's tiles (many such segments
     * run side by side, where the device-wide sort would take them one
     * after another), longer ones device-wide unless there are one per
     * SM: then a group each too. */
    .segsort =
        {
            .classify_wg = 256,
            .small_max = 256,
            .small_wg = 32,
            .block_max = 65536,
            .block_wg = 256,
            .block_items_4 = 15,
            .block_items_8 = 7,
            .device_groups_per_cu = 1,
            .launch = MERGE_LAUNCH,
        },
    /* Top-k, as CUDA's TOPK_* knobs: rows of up to 1024 / 4096 4-byte keys
     * (1024 / 2048 8-byte ones) by a group of 256, 4 or 16 (8) keys a
     * work-item in registers and the sort buffer in local memory (35 KiB
     * at the largest); longer rows by passes of 512 x 8 elements a tile,
     * 2 groups an SM (no more than the row has tiles), candidate buffers
     * of cols / 16 (at least 2^16). The choose step runs a group of
     * pass_wg (CUDA's 256: 512 here, one program for both). */
    .topk =
        {
            .rows_wg = 256,
            .rows_items_4 = {4, 16},
            .rows_items_8 = {4, 8},
            .pass_wg = 512,
            .pass_items = 8,
            .chunked = 0,
            .pass_groups_per_cu = 2,
            .pass_group_min = 512 * 8,
            .cand_div = 16,
            .cand_min = 65536,
            .finish_wg = 256,
            .launch = MERGE_LAUNCH,
        },
};

/*
 * CPUs (PoCL): work-groups of one work-item, each streaming one contiguous
 * chunk with 64-byte vectors (one AVX-512 register; two AVX2 ones), four
 * chunks per core for balance. The SIMD comes from the vector types: PoCL
 * vectorises across the work-items of a group, which for contiguous
 * chunks means gathers: a grid-stride loop and shorter vector steps
 * measured slower, larger groups no faster. No look-back: reduce-then-scan
 * needs no promise about which work-groups run at the same time.
 */
static const prism__cl_policy cpu_policy = {
    .name = "cpu",
    .reduce =
        {
            .wg = 1,
            .vec_bytes = 64,
            .chunked = 1,
            .groups_per_cu = 4,
            .per_group_min = 65536,
        },
    /* The look-back shapes are used only when forced (tests). */
    .scan =
        {
            .lookback = 0,
            .wg = 64,
            LOOKBACK_TILES,
            .chunk_wg = 1,
            .chunk_vec_bytes = 64,
            .chunks_per_cu = 4,
            .chunk_min = 65536,
        },
    /* The classic count / scan / scatter passes, one contiguous chunk per
     * work-item, four per core; up to 32768 keys, one work-item sorts
     * them all (serial counting sorts, one launch: items unused). */
    .sort =
        {
            .radix_bits = 8,
            .single_max = 32768,
            .wg = 1,
            .items_4 = 1,
            .items_8 = 1,
            .onesweep = 0,
            .hist_groups_per_cu = 4,
            .chunk_wg = 1,
            .chunks_per_cu = 4,
            .chunk_min = 65536,
        },
    /* One element per work-item in groups of 64, which PoCL runs as vector
     * loops over the work-items (the indexed side is a gather or scatter
     * either way). */
    .gather_scatter =
        {
            .wg = 64,
            .launch = (size_t)1 << 30,
        },
    /* Count / offsets / write over four contiguous chunks per core, as the
     * classic sort passes; the look-back shapes are used only when forced
     * (tests). */
    .select =
        {
            .lookback = 0,
            .wg = 64,
            SELECT_TILES,
            .chunks_per_cu = 4,
            .chunk_min = 65536,
        },
    /* Each chunk (four per core) counts into its own tables in scratch
     * with plain increments, four tables interleaved while they fit 64 KiB
     * (a run of one bin then never waits on its own last increment), then
     * a merge; global atomics (groups of 64) only when the tables would
     * pass 64 MiB. */
    .hist =
        {
            .private_tables = 1,
            .wg = 64,
            .groups_per_cu = 4,
            .merge_wg = 64,
            HIST_SHAPES,
        },
    /* Reduce-then-scan over four contiguous chunks per core, as the scan;
     * the reduce splits the merge of elements and segment bounds into as
     * many chunks. The tile shapes are used only when forced (tests). */
    .seg =
        {
            .lookback = 0,
            .wg = 1,
            SEG_TILES,
            .chunks_per_cu = 4,
            .chunk_min = 65536,
        },
    /* One work-item per group, 16 groups per core, each a contiguous range
     * of tiles: serial loops over vertices and edges; items of 1024 edges
     * split only vertices of more than 1024 out-edges; bottom-up tiles of
     * 64 words, every in-list scanned alone; read-backs after 4, 8, ... 64
     * steps (launches cost more here); batches below 32 wait for their own
     * flag; every top-down candidate filtered by a plain load (cheap next
     * to an atomic on a CPU); one launch per step: a group spinning at a
     * barrier holds a core that another may need. */
    .bfs =
        {
            .persistent = 0,
            .discovery_polls = 0,
            .wg = 1,
            .groups_per_cu = 16,
            .td_items = 16,
            .chunk_passes = 64,
            .small_degree = 1024,
            .td_filter_edges = 0,
            .bu_thread_edges = 0,
            .bu_batch = 4,
            .tile_words = 64,
            .contiguous = 1,
            .first_batch = 4,
            .max_batch = 64,
            .overlap_batch = 32,
        },
    /* One work-item per tile of SPMV_CPU_TILE merge items, the serial CSR
     * loop over its rows straight from global memory (a work-group's
     * staging and scan only cost here); short split rows 64 to a
     * work-item. items_4 and items_8 go unused. */
    .spmv =
        {
            .serial = 1,
            .wg = 1,
            .items_4 = 8,
            .items_8 = 6,
            .serial_tile = SPMV_CPU_TILE,
            .fix_splits = 64,
        },
    /* One work-item per group moves 64 x 64 blocks (or the short side
     * whole by the rest of 4096 elements) straight from global memory, one
     * element at a time along the block's longer side: a square block's
     * input lines stay in L1 while its output rows are written in order,
     * and a local tile with its barriers would only cost here (8 x 8
     * transposes in registers measured no steady gain on PoCL). Sixteen
     * work-items per core, each a contiguous range of blocks: balance against
     * the cost of a group. */
    .transpose =
        {
            .blocked = 1,
            .wg = 1,
            TRANSPOSE_TILES(4096),
            .groups_per_cu = 16,
        },
    /* stencil_rows, one work-item per group: a work-item sums its run tap
     * by tap (the taps in the contract's order for every point), the
     * neighbours read straight from global memory, so the inner loop is a
     * unit-stride multiply-add over the run that the compiler vectorises.
     * The tile shapes serve a forced GPU policy only. */
    .stencil =
        {
            .rows = 1,
            .wg = 1,
            STENCIL_TILES,
        },
    .merge =
        {
            .wg = CPU_MERGE_WG,
            .items_4 = CPU_MERGE_I4,
            .items_8 = CPU_MERGE_I8,
            .partition_wg = CPU_MERGE_PWG,
            .launch = MERGE_LAUNCH,
        },
    /* Segmented sort: one work-item per segment below 32 keys (counting
     * ranks, no passes) or up to 131072 (the sort's serial counting
     * passes, one core a segment); longer ones device-wide, whose classic
     * passes split a segment over cores from two chunks on (unless there
     * are a segment per core: then one core each too). */
    .segsort =
        {
            .classify_wg = 64,
            .small_max = 32,
            .small_wg = 1,
            .block_max = 131072,
            .block_wg = 1,
            .block_items_4 = 1,
            .block_items_8 = 1,
            .device_groups_per_cu = 1,
            .launch = MERGE_LAUNCH,
        },
    /* Top-k: one work-item a row of up to 32768 keys (a core a row, its
     * loops as long as the row, not the tile; plain histogram increments),
     * longer rows by passes of one work-item each over a contiguous range,
     * four per core (a 2048-bin flush each), rounds of 16 elements; 64
     * ranks a finish group. */
    .topk =
        {
            .rows_wg = CPU_TOPK_ROWS_WG,
            .rows_items_4 = {CPU_TOPK_ROWS_I0, CPU_TOPK_ROWS_I1},
            .rows_items_8 = {CPU_TOPK_ROWS_I0, CPU_TOPK_ROWS_I1},
            .pass_wg = 1,
            .pass_items = CPU_TOPK_PASS_ITEMS,
            .chunked = 1,
            .pass_groups_per_cu = 4,
            .pass_group_min = 65536,
            .cand_div = 16,
            .cand_min = 65536,
            .finish_wg = CPU_TOPK_FINISH_WG,
            .launch = MERGE_LAUNCH,
        },
};

/* Room kept free in local memory for what the compiler adds. */
#define LOCAL_MEM_SLACK 1024

static unsigned floor_pow2(size_t x) {
  unsigned p = 1;
  while ((size_t)p * 2 <= x && p < (1u << 30))
    p *= 2;
  return p;
}

static unsigned fit_wg(unsigned wg, size_t max_wg) {
  return max_wg && wg > max_wg ? floor_pow2(max_wg) : wg;
}

static unsigned fit_window(unsigned window, unsigned wg) {
  return window > wg ? wg : window;
}

/* The local bytes of a tile kernel with items per work-item of
 * elem-byte elements, as kernels_cl/local_memory.h states them. */
typedef size_t (*local_bytes)(const prism__cl_policy *p, unsigned items,
                              size_t elem);

static size_t scan_local(const prism__cl_policy *p, unsigned items,
                         size_t elem) {
  return PRISM_LOCAL_SCAN((size_t)p->scan.wg, items, elem, p->scan.lb_window);
}

/* The sort's tile also indexes its keys in 16 bits: at most 2^16. */
static size_t sort_local(const prism__cl_policy *p, unsigned items,
                         size_t key) {
  if ((size_t)p->sort.wg * items > 65536)
    return SIZE_MAX;
  return PRISM_LOCAL_SORT((size_t)p->sort.wg, items, key,
                          (size_t)1 << p->sort.radix_bits);
}

static size_t select_local(const prism__cl_policy *p, unsigned items,
                           size_t elem) {
  return PRISM_LOCAL_SELECT((size_t)p->select.wg, items, elem,
                            p->select.lb_window);
}

static size_t seg_scan_local(const prism__cl_policy *p, unsigned items,
                             size_t elem) {
  return PRISM_LOCAL_SEG_SCAN((size_t)p->seg.wg, items, elem, p->seg.lb_window);
}

static size_t seg_reduce_local(const prism__cl_policy *p, unsigned items,
                               size_t elem) {
  return PRISM_LOCAL_SEG_REDUCE((size_t)p->seg.wg, items, elem,
                                p->seg.lb_window);
}

static size_t spmv_local(const prism__cl_policy *p, unsigned items,
                         size_t elem) {
  return PRISM__CL_SPMV_LOCAL((size_t)p->spmv.wg, items, elem);
}

/* Pairs, the larger tile; the tile's positions are ints. */
static size_t merge_local(const prism__cl_policy *p, unsigned items,
                          size_t key) {
  if ((size_t)p->merge.wg * items > INT32_MAX)
    return SIZE_MAX;
  return PRISM__CL_MERGE_LOCAL((size_t)p->merge.wg, items, key, 4);
}

/* segsort_global declares what sort_single_block does, less than a
 * Onesweep tile; its keys are indexed in 16 bits too. */
static size_t segsort_global_local(const prism__cl_policy *p, unsigned items,
                                   size_t key) {
  if ((size_t)p->segsort.block_wg * items > 65536)
    return SIZE_MAX;
  return PRISM_LOCAL_SORT((size_t)p->segsort.block_wg, items, key,
                          (size_t)1 << p->sort.radix_bits);
}

/* The largest items <= want whose kernel fits local_mem (less the slack),
 * stepping down by step (odd counts stay odd with 2) and to 1 at the
 * least. */
static unsigned fit_items(unsigned want, unsigned step, local_bytes bytes,
                          const prism__cl_policy *p, size_t local_mem,
                          size_t elem) {
  const size_t budget =
      local_mem > LOCAL_MEM_SLACK ? local_mem - LOCAL_MEM_SLACK : 0;
  unsigned items = want;
  while (items > 1 && bytes(p, items, elem) > budget)
    items -= items > step ? step : items - 1;
  return items;
}

/* Whether a kernel of that many __local bytes fits local_mem. */
static int local_fits(size_t bytes, size_t local_mem) {
  return local_mem > LOCAL_MEM_SLACK && bytes <= local_mem - LOCAL_MEM_SLACK;
}

unsigned prism__cl_transpose_tile(const prism__cl_transpose_policy *p,
                                  size_t e_bytes) {
  switch (e_bytes) {
  case 1:
    return p->tile_1;
  case 2:
    return p->tile_2;
  case 4:
    return p->tile_4;
  default:
    return p->tile_8;
  }
}

/* The transpose tiles halved (down to one element per work-item) until
 * each fits local memory; blocks from global memory where one cannot.
 * The packed tile halved likewise (its side with it, while the tile is
 * the side squared), else no packed path. */
static void fit_transpose(prism__cl_transpose_policy *p, size_t local_mem) {
  /* The largest packed tile: 2 words of 8 bytes a block (4-byte elements)
   * or 4 of 4 (1-byte ones). */
  while (p->packed_tile >= p->wg && p->packed_tile > 0 &&
         !local_fits(
             PRISM__CL_TRANSPOSE_PACKED_LOCAL((size_t)p->packed_tile, 4, 4),
             local_mem)) {
    p->packed_tile /= 2;
    if ((size_t)p->packed_side * p->packed_side > p->packed_tile)
      p->packed_side /= 2;
  }
  if (p->packed_tile < p->wg || p->packed_side < 2)
    p->packed_tile = 0;
  unsigned *tiles[] = {&p->tile_1, &p->tile_2, &p->tile_4, &p->tile_8};
  for (size_t i = 0; i < 4; i++) {
    const size_t e_bytes = (size_t)1 << i;
    while (*tiles[i] > p->wg &&
           !local_fits(PRISM__CL_TRANSPOSE_LOCAL((size_t)*tiles[i], e_bytes),
                       local_mem))
      *tiles[i] /= 2;
    if (*tiles[i] < p->wg || *tiles[i] < 4 ||
        !local_fits(PRISM__CL_TRANSPOSE_LOCAL((size_t)*tiles[i], e_bytes),
                    local_mem)) {
      p->blocked = 1;
      p->wg = 1;
    }
  }
}

unsigned prism__cl_stencil_cols(const prism__cl_stencil_policy *p,
                                size_t t_bytes) {
  return t_bytes == 4 ? p->cols_2d_4 : p->cols_2d_8;
}

/* The ring's __local bytes (its weights too) at most on any device, as
 * CUDA's ring_items bounds its ring: 48 KiB of static shared memory less
 * 1 KiB. */
#define STENCIL_RING_LOCAL_MAX (47 * 1024)

unsigned prism__cl_stencil_ring_items(const prism__cl_stencil_policy *p,
                                      unsigned r, size_t t_bytes,
                                      size_t local_mem) {
  unsigned items = p->items_3d > 0 ? p->items_3d : 1;
  while (items > 1) {
    const size_t bytes =
        PRISM__CL_STENCIL_3D_LOCAL((size_t)p->rows_3d, items, r, t_bytes);
    if (bytes <= STENCIL_RING_LOCAL_MAX &&
        (!local_mem || local_fits(bytes, local_mem)))
      break;
    items /= 2;
  }
  return items;
}

/* stencil_2d at the largest radius fits local memory for values of
 * t_bytes. */
static int stencil_2d_fits(const prism__cl_stencil_policy *p, size_t t_bytes,
                           size_t local_mem) {
  return local_fits(
      PRISM__CL_STENCIL_2D_LOCAL((size_t)p->rows_2d, p->items_2d,
                                 prism__cl_stencil_cols(p, t_bytes),
                                 (size_t)PRISM_STENCIL_MAX_RADIUS, t_bytes),
      local_mem);
}

/* stencil_2d_box at radius r fits local memory for 8-byte values. */
static int stencil_box_fits(const prism__cl_stencil_policy *p, unsigned r,
                            size_t local_mem) {
  return local_fits(
      PRISM__CL_STENCIL_BOX_LOCAL((size_t)p->rows_2d, p->box_rows, r, 8),
      local_mem);
}

/* The stencil tile kernels fitted to the work-group limit and to local
 * memory at the largest radius, 1-D and the box for 8-byte values (4-byte
 * ones need half), 2-D for both: fewer items per work-item, then fewer
 * columns; boxes with fewer rows per work-item, then the larger radii on
 * stencil_2d; a ring of smaller radii (its items per work-item fitted per
 * radius and type: prism__cl_stencil_ring_items); stencil_rows where a
 * 1-D or 2-D tile kernel cannot fit. */
static void fit_stencil(prism__cl_stencil_policy *p, size_t max_wg,
                        size_t local_mem) {
  if (p->rows)
    return;
  while (p->rows_2d > 1 && max_wg && (size_t)32 * p->rows_2d > max_wg)
    p->rows_2d /= 2;
  while (p->rows_3d > 1 && max_wg && (size_t)32 * p->rows_3d > max_wg)
    p->rows_3d /= 2;
  if (p->ring_max_r > 2)
    p->ring_max_r = 2;
  if (p->box_max_r > PRISM_STENCIL_MAX_RADIUS)
    p->box_max_r = PRISM_STENCIL_MAX_RADIUS;
  if (max_wg && max_wg < 32) {
    p->rows = 1;
    p->wg = 1;
    return;
  }
  if (!local_mem)
    return;
  const size_t rmax = PRISM_STENCIL_MAX_RADIUS;
  while (p->items_1d > 1 &&
         !local_fits(
             PRISM__CL_STENCIL_1D_LOCAL((size_t)p->wg, p->items_1d, rmax, 8),
             local_mem))
    p->items_1d--;
  while (p->items_2d > 1 && !(stencil_2d_fits(p, 4, local_mem) &&
                              stencil_2d_fits(p, 8, local_mem)))
    p->items_2d--;
  while (p->cols_2d_4 > 1 && !stencil_2d_fits(p, 4, local_mem))
    p->cols_2d_4 /= 2;
  while (p->cols_2d_8 > 1 && !stencil_2d_fits(p, 8, local_mem))
    p->cols_2d_8 /= 2;
  for (unsigned r = p->box_min_r; r <= p->box_max_r; r++) {
    unsigned *q = &p->box_rows;
    while (*q > 1 && !stencil_box_fits(p, r, local_mem))
      *q /= 2;
    if (!stencil_box_fits(p, r, local_mem)) {
      p->box_max_r = r - 1;
      break;
    }
  }
  while (p->ring_max_r > 0 &&
         !local_fits(PRISM__CL_STENCIL_3D_LOCAL((size_t)p->rows_3d, 1,
                                                p->ring_max_r, 8),
                     local_mem))
    p->ring_max_r--;
  if (!local_fits(
          PRISM__CL_STENCIL_1D_LOCAL((size_t)p->wg, p->items_1d, rmax, 8),
          local_mem) ||
      !stencil_2d_fits(p, 4, local_mem) || !stencil_2d_fits(p, 8, local_mem)) {
    p->rows = 1;
    p->wg = 1;
  }
}

/* Every tile shape fitted to the device's local memory. */
static void fit_tiles(prism__cl_policy *p, size_t local_mem) {
  p->scan.items_4 = fit_items(p->scan.items_4, 2, scan_local, p, local_mem, 4);
  p->scan.items_8 = fit_items(p->scan.items_8, 2, scan_local, p, local_mem, 8);
  p->sort.items_4 = fit_items(p->sort.items_4, 2, sort_local, p, local_mem, 4);
  p->sort.items_8 = fit_items(p->sort.items_8, 2, sort_local, p, local_mem, 8);
  /* Compaction: one selection bit per item, 32 at most. */
  unsigned *select_items[] = {&p->select.items_1, &p->select.items_4,
                              &p->select.items_8};
  const size_t select_elem[] = {1, 4, 8};
  for (int i = 0; i < 3; i++) {
    const unsigned want = *select_items[i] < 32 ? *select_items[i] : 32;
    *select_items[i] =
        fit_items(want, 1, select_local, p, local_mem, select_elem[i]);
  }
  p->seg.items_4 =
      fit_items(p->seg.items_4, 2, seg_scan_local, p, local_mem, 4);
  p->seg.items_8 =
      fit_items(p->seg.items_8, 2, seg_scan_local, p, local_mem, 8);
  p->seg.merge_items_4 =
      fit_items(p->seg.merge_items_4, 2, seg_reduce_local, p, local_mem, 4);
  p->seg.merge_items_8 =
      fit_items(p->seg.merge_items_8, 2, seg_reduce_local, p, local_mem, 8);
  p->spmv.items_4 = fit_items(p->spmv.items_4, 1, spmv_local, p, local_mem, 4);
  p->spmv.items_8 = fit_items(p->spmv.items_8, 1, spmv_local, p, local_mem, 8);
  /* The merge: smaller work-groups only where one item of 8-byte pairs
   * each does not fit. */
  while (p->merge.wg > 1 && !local_fits(merge_local(p, 1, 8), local_mem))
    p->merge.wg /= 2;
  p->merge.items_4 =
      fit_items(p->merge.items_4, 2, merge_local, p, local_mem, 4);
  p->merge.items_8 =
      fit_items(p->merge.items_8, 2, merge_local, p, local_mem, 8);
  /* Segmented sort: shorter SMALL segments (8-byte keys the larger) and
   * smaller BLOCK tiles. */
  while (p->segsort.small_max > 1 &&
         !local_fits(PRISM__CL_SEGSORT_SMALL_LOCAL(p->segsort.small_max, 8),
                     local_mem))
    p->segsort.small_max /= 2;
  p->segsort.block_items_4 = fit_items(p->segsort.block_items_4, 2,
                                       segsort_global_local, p, local_mem, 4);
  p->segsort.block_items_8 = fit_items(p->segsort.block_items_8, 2,
                                       segsort_global_local, p, local_mem, 8);
}

/* topk_rows' tiles: at most 32768 keys (16-bit counts), halved until
 * each fits local memory; a tile that cannot is dropped (those rows take
 * the passes). */
static void fit_topk(prism__cl_topk_policy *p, size_t local_mem) {
  unsigned *lists[2] = {p->rows_items_4, p->rows_items_8};
  for (int l = 0; l < 2; l++)
    for (int t = 0; t < PRISM__CL_TOPK_TILES; t++) {
      unsigned *items = &lists[l][t];
      const size_t key = l == 0 ? 4 : 8;
      while (*items > 1 && ((size_t)p->rows_wg * *items > 32768 ||
                            (local_mem && !local_fits(PRISM__CL_TOPK_ROWS_LOCAL(
                                                          (size_t)p->rows_wg,
                                                          (size_t)*items, key),
                                                      local_mem))))
        *items /= 2;
      if (*items && local_mem &&
          !local_fits(PRISM__CL_TOPK_ROWS_LOCAL((size_t)p->rows_wg,
                                                (size_t)*items, key),
                      local_mem))
        *items = 0;
    }
}

int prism__cl_choose_policy(const prism__cl_device_facts *facts,
                            prism__cl_policy *out) {
  /* PRISM_OPENCL_POLICY=gpu|cpu overrides the choice: to run the look-back
   * path on a CPU in tests, or to measure one kind's shapes on the other. */
  const char *force = getenv("PRISM_OPENCL_POLICY");
  if (force && prism__equals_ignore_case(force, gpu_policy.name))
    *out = gpu_policy;
  else if (force && prism__equals_ignore_case(force, cpu_policy.name))
    *out = cpu_policy;
  else if (force && *force)
    return -1;
  else
    *out = facts->is_gpu ? gpu_policy : cpu_policy;
  out->reduce.wg = fit_wg(out->reduce.wg, facts->max_wg);
  out->scan.wg = fit_wg(out->scan.wg, facts->max_wg);
  out->scan.chunk_wg = fit_wg(out->scan.chunk_wg, facts->max_wg);
  out->sort.wg = fit_wg(out->sort.wg, facts->max_wg);
  out->sort.chunk_wg = fit_wg(out->sort.chunk_wg, facts->max_wg);
  out->gather_scatter.wg = fit_wg(out->gather_scatter.wg, facts->max_wg);
  out->select.wg = fit_wg(out->select.wg, facts->max_wg);
  out->seg.wg = fit_wg(out->seg.wg, facts->max_wg);
  out->spmv.wg = fit_wg(out->spmv.wg, facts->max_wg);
  out->transpose.wg = fit_wg(out->transpose.wg, facts->max_wg);
  out->stencil.wg = fit_wg(out->stencil.wg, facts->max_wg);
  out->merge.wg = fit_wg(out->merge.wg, facts->max_wg);
  out->merge.partition_wg = fit_wg(out->merge.partition_wg, facts->max_wg);
  out->segsort.classify_wg = fit_wg(out->segsort.classify_wg, facts->max_wg);
  out->segsort.small_wg = fit_wg(out->segsort.small_wg, facts->max_wg);
  out->segsort.block_wg = fit_wg(out->segsort.block_wg, facts->max_wg);
  out->topk.rows_wg = fit_wg(out->topk.rows_wg, facts->max_wg);
  out->topk.pass_wg = fit_wg(out->topk.pass_wg, facts->max_wg);
  out->topk.finish_wg = fit_wg(out->topk.finish_wg, facts->max_wg);
  out->scan.lb_window = fit_window(out->scan.lb_window, out->scan.wg);
  out->select.lb_window = fit_window(out->select.lb_window, out->select.wg);
  out->seg.lb_window = fit_window(out->seg.lb_window, out->seg.wg);
  if (facts->local_mem)
    fit_tiles(out, facts->local_mem);
  if (facts->local_mem && !out->transpose.blocked)
    fit_transpose(&out->transpose, facts->local_mem);
  fit_stencil(&out->stencil, facts->max_wg, facts->local_mem);
  fit_topk(&out->topk, facts->local_mem);
  /* The search in one launch needs a fence that orders global memory for
   * every group of the device, which OpenCL 1.2 does not name (with its
   * mem_fence the search hung on NVIDIA's OpenCL): NVIDIA's in PTX, or a
   * CPU's coherent caches. Elsewhere, and where a watchdog could cut a long
   * kernel, one launch per step. */
  if (facts->exec_timeout || !(facts->nvidia || facts->is_cpu))
    out->bfs.persistent = 0;
  /* A CPU's worker threads start their groups far apart next to a GPU's
   * scheduler, and its reads are fast: with a GPU's patience one group
   * would take part alone. */
  if (facts->is_cpu && out->bfs.persistent)
    out->bfs.discovery_polls = 1u << 20;
  /* Vector loads are aligned by construction only as far as buffers are. */
  while (facts->base_align && out->reduce.vec_bytes > facts->base_align)
    out->reduce.vec_bytes /= 2;
  while (facts->base_align && out->scan.chunk_vec_bytes > facts->base_align)
    out->scan.chunk_vec_bytes /= 2;
  return 0;
}
