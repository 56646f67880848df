/* SPDX-License-Identifier: MIT */
/* Device policies: the constants, and fitting them to a device. */
#include "env.h"
#include "tuning.h"

#include <stdlib.h>

/*
 * GPUs (aimed at NVIDIA's OpenCL on an H200): grid-stride reduce with
 * 16-byte loads, 8 work-groups of 256 per compute unit (2048 threads, a
 * full SM); single-pass look-back scan over tiles of 256 x 15 4-byte
 * (256 x 7 8-byte) elements, ~15 KiB of local memory per tile. Odd items
 * per work-item keep the work-item-serial local-memory passes free of bank
 * conflicts. The chunk_* shapes are only a fallback here.
 * Sort: Onesweep over tiles of 256 x 15 4-byte keys (256 x 7 8-byte ones),
 * ranked in local memory (~36 KiB with the counters); the histogram with 4
 * work-groups per SM; up to 8192 keys in one work-group.
 * Gather/scatter: one element per work-item, groups of 256, so index
 * reads and the contiguous side coalesce.
 * Select: look-back over tiles of 256 x 15 4-byte elements (256 x 7
 * 8-byte, 256 x 31 bytes), as the scan; a partition counts first with 4
 * work-groups per SM.
 * Histogram: work-groups of 256 count 32 bytes (16 4-byte, 8 8-byte
 * samples) per work-item and tile into local counters of up to 48 KiB
 * (replicas, one per warp, up to 16 KiB together; bytes: 256 counters per
 * warp), 8 groups per SM; up to 8 bin ranges, beyond that global atomics.
 */
static const prism__cl_policy gpu_policy = {
    .name = "gpu",
    .reduce_wg = 256,
    .reduce_vec_bytes = 16,
    .reduce_chunked = 0,
    .reduce_groups_per_cu = 8,
    .reduce_per_group_min = 16384,
    .scan_lookback = 1,
    .scan_wg = 256,
    .scan_items_4 = 15,
    .scan_items_8 = 7,
    .scan_lb_window = 32,
    .scan_single_tiles = 4,
    .chunk_wg = 64,
    .chunk_vec_bytes = 16,
    .chunks_per_cu = 64,
    .chunk_min = 4096,
    .sort_radix_bits = 8,
    .sort_single_max = 8192,
    .sort_wg = 256,
    .sort_items_4 = 15,
    .sort_items_8 = 7,
    .sort_onesweep = 1,
    .sort_hist_groups_per_cu = 4,
    .sort_chunk_wg = 64,
    .sort_chunks_per_cu = 64,
    .sort_chunk_min = 4096,
    .move_wg = 256,
    .move_launch = (size_t)1 << 30,
    .select_lookback = 1,
    .select_wg = 256,
    .select_items_1 = 31,
    .select_items_4 = 15,
    .select_items_8 = 7,
    .select_lb_window = 32,
    .select_single_tiles = 4,
    .select_count_groups_per_cu = 4,
    .select_chunks_per_cu = 64,
    .select_chunk_min = 4096,
    /* histogram */
    .hist_private = 0,
    .hist_wg = 256,
    .hist_items_1 = 32,
    .hist_items_4 = 16,
    .hist_items_8 = 8,
    .hist_groups_per_cu = 8,
    .hist_local_bytes = 48 * 1024,
    .hist_replica_bytes = 16 * 1024,
    .hist_max_replicas = 8,
    .hist_max_ranges = 8,
    .hist_chunks_per_cu = 4, /* chunk shapes: used only when forced */
    .hist_chunk_min = 65536,
    .hist_copies = 4,
    .hist_copies_bytes = 64 * 1024,
    .hist_private_bytes = (size_t)64 << 20,
    .hist_merge_wg = 256,
    /* segmented: scan tiles as the scan's; reduce tiles of 256 x 11 merge
     * items (4-byte T; 256 x 7 for 8-byte), 23 (29) KiB of local memory */
    .seg_lookback = 1,
    .seg_wg = 256,
    .seg_items_4 = 15,
    .seg_items_8 = 7,
    .seg_merge_items_4 = 11,
    .seg_merge_items_8 = 7,
    .seg_lb_window = 32,
    .seg_single_tiles = 4,
    .seg_chunks_per_cu = 64, /* chunk shapes: used only when forced */
    .seg_chunk_min = 4096,
    .seg_mark_segments = 8,
    /* bfs: work-groups of 256, 8 per SM; top-down passes of 4 edges per
     * work-item (items of 1024 edges), small vertices up to 64 out-edges
     * (a group pass per item: larger vertices waste less of it);
     * bottom-up tiles of 8 words (a vertex per work-item), 32 in-edges
     * alone, then the group. Figures: docs/results/tuning-opencl.md, BFS.
     */
    /* The whole search in one launch, as CUDA's: no launch per level, for
     * a fence across groups; the batches below serve devices with a
     * watchdog. */
    .bfs_persistent = 1,
    /* Waiting for groups still to arrive (only when fewer run at once
     * than were launched: a context's first search) against starting. */
    .bfs_discovery_polls = 1024,
    .bfs_wg = 256,
    .bfs_groups_per_cu = 8,
    .bfs_td_items = 4,
    .bfs_chunk_passes = 1,
    .bfs_small_degree = 64,
    /* A plain load before each atomic_or only in large steps, as CUDA's:
     * a wasted load where few candidates are visited. */
    .bfs_td_filter_edges = 65536,
    .bfs_bu_thread_edges = 32,
    .bfs_bu_batch = 4,
    .bfs_tile_words = 8,
    .bfs_contiguous = 0,
    /* Read-backs after 16, 32, ... 256 steps, a batch below 32 waiting for
     * its own flag: launches queued past the end against host waits (an
     * RMAT search, about ten steps, is one batch and one wait). */
    .bfs_first_batch = 16,
    .bfs_max_batch = 256,
    .bfs_overlap_batch = 32,
};

/*
 * CPUs (PoCL): work-groups of one work-item, each streaming one contiguous
 * chunk with 64-byte vectors (one AVX-512 register; two AVX2 ones), four
 * chunks per core for balance. The SIMD comes from the vector types: PoCL
 * vectorises across the work-items of a group, which for contiguous
 * chunks means gathers: a grid-stride loop and shorter vector steps
 * measured slower, larger groups no faster (docs/results/tuning-opencl.md,
 * Reduce and Scan). No look-back: reduce-then-scan needs no promise about
 * which work-groups run at the same time. Sort: the classic count / scan /
 * scatter passes, one contiguous chunk per work-item, four per core; up to
 * 32768 keys, one work-item sorts them all (serial
 * counting sorts, one launch). Gather/scatter: one element per work-item
 * in groups of 64, which PoCL runs as vector loops over the work-items
 * (the indexed side is a gather or scatter either way). Select: count /
 * offsets / write over four contiguous chunks per core, as the classic
 * sort passes. Histogram: each chunk (four per core) counts into its own
 * tables in scratch with plain increments, four tables interleaved while
 * they fit 64 KiB (a run of one bin then never waits on its own last
 * increment), then a merge; global atomics only when the tables would
 * pass 64 MiB.
 */
static const prism__cl_policy cpu_policy = {
    .name = "cpu",
    .reduce_wg = 1,
    .reduce_vec_bytes = 64,
    .reduce_chunked = 1,
    .reduce_groups_per_cu = 4,
    .reduce_per_group_min = 65536,
    .scan_lookback = 0,
    .scan_wg = 64, /* look-back shapes: used only when forced (tests) */
    .scan_items_4 = 15,
    .scan_items_8 = 7,
    .scan_lb_window = 32,
    .scan_single_tiles = 4,
    .chunk_wg = 1,
    .chunk_vec_bytes = 64,
    .chunks_per_cu = 4,
    .chunk_min = 65536,
    .sort_radix_bits = 8,
    .sort_single_max = 32768,
    .sort_wg = 1,
    .sort_items_4 = 1, /* unused: one work-item sorts serially */
    .sort_items_8 = 1,
    .sort_onesweep = 0,
    .sort_hist_groups_per_cu = 4,
    .sort_chunk_wg = 1,
    .sort_chunks_per_cu = 4,
    .sort_chunk_min = 65536,
    .move_wg = 64,
    .move_launch = (size_t)1 << 30,
    .select_lookback = 0,
    .select_wg = 64, /* look-back shapes: used only when forced (tests) */
    .select_items_1 = 31,
    .select_items_4 = 15,
    .select_items_8 = 7,
    .select_lb_window = 32,
    .select_single_tiles = 4,
    .select_count_groups_per_cu = 4,
    .select_chunks_per_cu = 4,
    .select_chunk_min = 65536,
    /* histogram */
    .hist_private = 1,
    .hist_wg = 64, /* blocks / atomic: atomic only for very many bins */
    .hist_items_1 = 32,
    .hist_items_4 = 16,
    .hist_items_8 = 8,
    .hist_groups_per_cu = 4,
    .hist_local_bytes = 48 * 1024,
    .hist_replica_bytes = 16 * 1024,
    .hist_max_replicas = 8,
    .hist_max_ranges = 8,
    .hist_chunks_per_cu = 4,
    .hist_chunk_min = 65536,
    .hist_copies = 4,
    .hist_copies_bytes = 64 * 1024,
    .hist_private_bytes = (size_t)64 << 20,
    .hist_merge_wg = 64,
    /* segmented: reduce-then-scan over four contiguous chunks per core, as
     * the scan; the reduce splits the merge of elements and segment bounds
     * into as many chunks */
    .seg_lookback = 0,
    .seg_wg = 1,
    .seg_items_4 = 15, /* tile shapes: used only when forced (tests) */
    .seg_items_8 = 7,
    .seg_merge_items_4 = 11,
    .seg_merge_items_8 = 7,
    .seg_lb_window = 32,
    .seg_single_tiles = 4,
    .seg_chunks_per_cu = 4,
    .seg_chunk_min = 65536,
    .seg_mark_segments = 8, /* unused: chunks take a share each */
    /* bfs: one work-item per group, 16 groups per core, each a contiguous
     * range of tiles: serial loops over vertices and edges; items of 1024
     * edges split only vertices of more than 1024 out-edges; bottom-up
     * tiles of 64 words, every in-list scanned alone; read-backs after 4,
     * 8, ... 64 steps (launches cost more here); batches below 32 wait for
     * their own flag; every top-down candidate filtered by a plain load
     * (cheap next to an atomic on a CPU); one launch per step: a group
     * spinning at a barrier holds a core that another may need */
    .bfs_persistent = 0,
    .bfs_discovery_polls = 0,
    .bfs_wg = 1,
    .bfs_groups_per_cu = 16,
    .bfs_td_items = 16,
    .bfs_chunk_passes = 64,
    .bfs_small_degree = 1024,
    .bfs_td_filter_edges = 0,
    .bfs_bu_thread_edges = 0,
    .bfs_bu_batch = 4,
    .bfs_tile_words = 64,
    .bfs_contiguous = 1,
    .bfs_first_batch = 4,
    .bfs_max_batch = 64,
    .bfs_overlap_batch = 32,
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

/* Largest odd items <= want whose tile, scan buffer and look-back window
 * of elem-byte elements fit in local memory. */
static unsigned fit_items(unsigned want, const prism__cl_policy *p,
                          size_t local_mem, size_t elem) {
  size_t budget = local_mem > LOCAL_MEM_SLACK ? local_mem - LOCAL_MEM_SLACK : 0;
  size_t fixed = (2 * (size_t)p->scan_wg + p->scan_lb_window + 1) * elem +
                 p->scan_lb_window * 4 + 16;
  unsigned items = want;
  while (items > 1 && fixed + (size_t)p->scan_wg * items * elem > budget)
    items -= items > 2 ? 2 : 1;
  return items;
}

/* Largest odd items <= want whose sort tile of key-byte keys, with its
 * source indexes, rank counters, scan buffer and digit tables (what
 * sort_onesweep declares), fits in local memory and has at most 2^16 keys
 * (the indexes are 16-bit). */
static unsigned fit_sort_items(unsigned want, const prism__cl_policy *p,
                               size_t local_mem, size_t key) {
  size_t budget = local_mem > LOCAL_MEM_SLACK ? local_mem - LOCAL_MEM_SLACK : 0;
  size_t radix = (size_t)1 << p->sort_radix_bits;
  size_t fixed = 16 * (size_t)p->sort_wg * 2 + 2 * (size_t)p->sort_wg * 8 +
                 radix * (4 + 4 + 8) + 16;
  unsigned items = want;
  while (items > 1 &&
         (fixed + (size_t)p->sort_wg * items * (key + 2) > budget ||
          (size_t)p->sort_wg * items > 65536))
    items -= items > 2 ? 2 : 1;
  return items;
}

/* Largest items <= want (at most 32: one bit each) whose select tile of
 * elem-byte elements, with its selection bytes, count scan buffer and
 * look-back window (what select_lookback declares), fits in local
 * memory. */
static unsigned fit_select_items(unsigned want, const prism__cl_policy *p,
                                 size_t local_mem, size_t elem) {
  size_t budget = local_mem > LOCAL_MEM_SLACK ? local_mem - LOCAL_MEM_SLACK : 0;
  size_t fixed = 2 * (size_t)p->select_wg * 4 + p->select_lb_window * 12 + 32;
  unsigned items = want < 32 ? want : 32;
  while (items > 1 &&
         fixed + (size_t)p->select_wg * items * (elem + 1) > budget)
    items--;
  return items;
}

/* Largest odd items <= want whose segmented tile of elem-byte elements
 * fits in local memory with the work-group scan of (value, kind) pairs and
 * the look-back window: bytes_per_item per item (scan: the element and its
 * mark; reduce: the element and a bound slot as wide). */
static unsigned fit_seg_items(unsigned want, const prism__cl_policy *p,
                              size_t local_mem, size_t elem,
                              size_t bytes_per_item) {
  size_t budget = local_mem > LOCAL_MEM_SLACK ? local_mem - LOCAL_MEM_SLACK : 0;
  size_t pair = elem + 4; /* a value and its kind, split */
  size_t fixed = 2 * (size_t)p->seg_wg * pair + p->seg_lb_window * (pair + 4) +
                 (p->seg_wg + 1) * 4 + 2 * 8 + 64;
  unsigned items = want;
  while (items > 1 &&
         fixed + (size_t)p->seg_wg * items * bytes_per_item > budget)
    items -= items > 2 ? 2 : 1;
  return items;
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
  out->reduce_wg = fit_wg(out->reduce_wg, facts->max_wg);
  out->scan_wg = fit_wg(out->scan_wg, facts->max_wg);
  out->chunk_wg = fit_wg(out->chunk_wg, facts->max_wg);
  out->sort_wg = fit_wg(out->sort_wg, facts->max_wg);
  out->sort_chunk_wg = fit_wg(out->sort_chunk_wg, facts->max_wg);
  out->move_wg = fit_wg(out->move_wg, facts->max_wg);
  out->select_wg = fit_wg(out->select_wg, facts->max_wg);
  out->seg_wg = fit_wg(out->seg_wg, facts->max_wg);
  if (out->seg_lb_window > out->seg_wg)
    out->seg_lb_window = out->seg_wg;
  if (out->scan_lb_window > out->scan_wg)
    out->scan_lb_window = out->scan_wg;
  if (out->select_lb_window > out->select_wg)
    out->select_lb_window = out->select_wg;
  if (facts->local_mem) {
    out->scan_items_4 = fit_items(out->scan_items_4, out, facts->local_mem, 4);
    out->scan_items_8 = fit_items(out->scan_items_8, out, facts->local_mem, 8);
    out->sort_items_4 =
        fit_sort_items(out->sort_items_4, out, facts->local_mem, 4);
    out->sort_items_8 =
        fit_sort_items(out->sort_items_8, out, facts->local_mem, 8);
    out->select_items_1 =
        fit_select_items(out->select_items_1, out, facts->local_mem, 1);
    out->select_items_4 =
        fit_select_items(out->select_items_4, out, facts->local_mem, 4);
    out->select_items_8 =
        fit_select_items(out->select_items_8, out, facts->local_mem, 8);
    out->seg_items_4 =
        fit_seg_items(out->seg_items_4, out, facts->local_mem, 4, 4 + 1);
    out->seg_items_8 =
        fit_seg_items(out->seg_items_8, out, facts->local_mem, 8, 8 + 1);
    out->seg_merge_items_4 =
        fit_seg_items(out->seg_merge_items_4, out, facts->local_mem, 4, 4 + 4);
    out->seg_merge_items_8 =
        fit_seg_items(out->seg_merge_items_8, out, facts->local_mem, 8, 8 + 8);
  }
  /* The search in one launch needs a fence that orders global memory for
   * every group of the device, which OpenCL 1.2 does not name (with its
   * mem_fence the search hung on NVIDIA's OpenCL): NVIDIA's in PTX, or a
   * CPU's coherent caches. Elsewhere, and where a watchdog could cut a long
   * kernel, one launch per step. */
  if (facts->exec_timeout || !(facts->nvidia || facts->is_cpu))
    out->bfs_persistent = 0;
  /* A CPU's worker threads start their groups far apart next to a GPU's
   * scheduler, and its reads are fast: with a GPU's patience one group
   * would take part alone. */
  if (facts->is_cpu && out->bfs_persistent)
    out->bfs_discovery_polls = 1u << 20;
  /* Vector loads are aligned by construction only as far as buffers are. */
  while (facts->base_align && out->reduce_vec_bytes > facts->base_align)
    out->reduce_vec_bytes /= 2;
  while (facts->base_align && out->chunk_vec_bytes > facts->base_align)
    out->chunk_vec_bytes /= 2;
  return 0;
}
