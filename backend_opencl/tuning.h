/* SPDX-License-Identifier: MIT */
/*
 * Tuning policies of the OpenCL backend: one struct of named constants per
 * device kind, chosen and fitted to the device at context creation. The
 * algorithms read their shapes from here and nowhere else, so retuning a
 * device is a data change.
 */
#ifndef PRISM_OPENCL_TUNING_H
#define PRISM_OPENCL_TUNING_H

#include <stddef.h>

/* What the policy choice looks at, as the device reports it. */
typedef struct prism__cl_device_facts {
  int is_cpu; /* CL_DEVICE_TYPE_CPU */
  int is_gpu; /* CL_DEVICE_TYPE_GPU */
  unsigned compute_units;
  size_t max_wg;       /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  size_t local_mem;    /* CL_DEVICE_LOCAL_MEM_SIZE, bytes */
  unsigned base_align; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
  int exec_timeout;    /* a watchdog cuts long kernels (where reported:
                          CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV) */
  int nvidia;          /* NVIDIA's OpenCL (cl_nv_device_attribute_query):
                          kernels may hold PTX */
} prism__cl_device_facts;

typedef struct prism__cl_policy {
  const char *name; /* "gpu", "cpu": shows in logs and the disk cache key */

  /* reduce_partials / reduce_final */
  unsigned reduce_wg;            /* work-items per work-group */
  unsigned reduce_vec_bytes;     /* bytes per vector load */
  int reduce_chunked;            /* 1: contiguous chunk per work-item;
                                    0: grid-stride loop */
  unsigned reduce_groups_per_cu; /* upper bound on work-groups, per CU */
  size_t reduce_per_group_min;   /* elements a work-group is worth: fewer
                                    groups for small n, one (and one launch)
                                    below this */

  /* scan: look-back (scan_lookback, scan_single_block) */
  int scan_lookback;          /* 0: reduce-then-scan (scan_chunks.cl) */
  unsigned scan_wg;           /* work-items per work-group */
  unsigned scan_items_4;      /* elements per work-item and tile, 4-byte T */
  unsigned scan_items_8;      /* the same for 8-byte T */
  unsigned scan_lb_window;    /* predecessor statuses read at once */
  unsigned scan_single_tiles; /* n up to this many tiles: one work-group */

  /* scan: reduce-then-scan (scan_reduce_chunks, scan_partials,
   * scan_chunks) */
  unsigned chunk_wg;        /* work-items per work-group */
  unsigned chunk_vec_bytes; /* bytes per vector step */
  unsigned chunks_per_cu;   /* chunks (work-items) per compute unit */
  size_t chunk_min;         /* elements a chunk is worth: below
                               2 * chunk_min, one chunk and one launch */

  /* sort: digits and tiles (sort_single_block, sort_histogram,
   * sort_offsets, sort_onesweep) */
  unsigned sort_radix_bits; /* bits per digit: one pass each */
  size_t sort_single_max;   /* n up to this: sort_single_block, one
                               work-group and one launch */
  unsigned sort_wg;         /* work-items per work-group */
  unsigned sort_items_4;    /* keys per work-item and tile, 4-byte keys */
  unsigned sort_items_8;    /* the same for 8-byte keys */

  /* sort: onesweep (look-back per tile and digit) */
  int sort_onesweep;                /* 0: the classic passes below */
  unsigned sort_hist_groups_per_cu; /* sort_histogram work-groups, per CU */

  /* sort: classic passes (sort_count, sort_chunk_offsets, sort_scatter) */
  unsigned sort_chunk_wg;      /* work-items per work-group */
  unsigned sort_chunks_per_cu; /* chunks (work-items) per compute unit */
  size_t sort_chunk_min;       /* keys a chunk is worth */

  /* gather / scatter (move_elements, move_first_bad) */
  unsigned move_wg;   /* work-items per work-group, one element each */
  size_t move_launch; /* positions per launch at most: a multiple of
                         move_wg, at most 2^32 (32-bit first-bad slots) */

  /* select: look-back (select_lookback, select_single_block; partitions
   * count first with select_count + select_offsets) */
  int select_lookback;          /* 0: count / offsets / write per chunk */
  unsigned select_wg;           /* work-items per work-group */
  unsigned select_items_1;      /* elements per work-item and tile, bytes */
  unsigned select_items_4;      /* the same for 4-byte elements */
  unsigned select_items_8;      /* the same for 8-byte elements */
  unsigned select_lb_window;    /* predecessor statuses read at once */
  unsigned select_single_tiles; /* n up to this many tiles: one work-group */
  unsigned select_count_groups_per_cu; /* select_count work-groups, per CU */

  /* select: chunks, one work-item each (select_count, select_offsets,
   * select_chunks) */
  unsigned select_chunks_per_cu; /* chunks per compute unit */
  size_t select_chunk_min;       /* elements a chunk is worth: below
                                    2 * select_chunk_min, one chunk and
                                    one launch */

  /* histogram: local-memory histograms per work-group, or global atomics
   * for too many bins (histogram_blocks, histogram_atomic); or private
   * tables per chunk and a merge (histogram_chunks, histogram_merge) */
  int hist_private;            /* 1: chunks + merge; 0: blocks / atomic */
  unsigned hist_wg;            /* work-items per work-group (blocks, atomic) */
  unsigned hist_items_1;       /* samples per work-item and tile, bytes */
  unsigned hist_items_4;       /* the same for 4-byte samples */
  unsigned hist_items_8;       /* the same for 8-byte samples */
  unsigned hist_groups_per_cu; /* work-groups per compute unit (a wave) */
  size_t hist_local_bytes;     /* a group's local counters (and edges) at
                                  most; bins beyond split into ranges */
  size_t hist_replica_bytes;   /* a group's replicas of its counters take
                                  at most this much together */
  unsigned hist_max_replicas;  /* replicas at most (one per 32 work-items) */
  unsigned hist_max_ranges;    /* bin ranges at most; beyond, atomics */
  unsigned hist_chunks_per_cu; /* chunks (work-items) per compute unit */
  size_t hist_chunk_min;       /* samples a chunk is worth */
  unsigned hist_copies;        /* tables per chunk (interleaved samples) */
  size_t hist_copies_bytes;    /* copies only while a chunk's tables fit */
  size_t hist_private_bytes;   /* every chunk's tables at most: beyond,
                                  fewer chunks, then histogram_atomic */
  unsigned hist_merge_wg;      /* histogram_merge work-items per group */

  /* segmented: look-back tiles (seg_scan_lookback, seg_scan_single_block,
   * seg_reduce_search, seg_reduce_tiles) or contiguous chunks, one
   * work-item each (seg_scan_reduce_chunks, seg_scan_partials,
   * seg_scan_chunks, seg_reduce_chunks, seg_reduce_carries); seg_init,
   * seg_mark and seg_reduce_segments serve both */
  int seg_lookback;           /* 0: chunks */
  unsigned seg_wg;            /* work-items per work-group */
  unsigned seg_items_4;       /* scan: elements per work-item and tile,
                                 4-byte T */
  unsigned seg_items_8;       /* the same for 8-byte T */
  unsigned seg_merge_items_4; /* reduce: merge items (elements and
                                 segment bounds) per work-item and tile,
                                 4-byte T */
  unsigned seg_merge_items_8; /* the same for 8-byte T */
  unsigned seg_lb_window;     /* predecessor statuses read at once */
  unsigned seg_single_tiles;  /* scan: n up to this many tiles: one
                                 work-group */
  unsigned seg_chunks_per_cu; /* chunks per compute unit */
  size_t seg_chunk_min;       /* elements (reduce: merge items) a chunk is
                                 worth */
  unsigned seg_mark_segments; /* seg_mark: segments per work-item, with
                                 look-back (chunks: one share each) */

  /* bfs: one launch for the search (bfs_persistent) or one per step
   * (bfs_step), work-groups of bfs_wg; see kernels_cl/bfs.cl */
  int bfs_persistent;           /* 1: one launch for the search */
  unsigned bfs_discovery_polls; /* persistent: reads of the arrival count
                                   without a change before a group stops
                                   waiting for more */
  unsigned bfs_wg;              /* work-items per work-group */
  unsigned bfs_groups_per_cu;   /* work-groups launched, per CU */
  unsigned bfs_td_items;        /* top-down edges per work-item and pass */
  unsigned bfs_chunk_passes;    /* passes per item: an item holds bfs_wg x
                                   bfs_td_items x this edges */
  unsigned bfs_small_degree;    /* out-degree up to which a vertex is
                                   expanded in its tile; above, in items */
  unsigned bfs_td_filter_edges; /* top-down: frontier out-edges above which
                                   candidates are filtered by a plain load
                                   before the atomic_or */
  unsigned bfs_bu_thread_edges; /* bottom-up: in-edges a work-item scans
                                   alone (0: all); the group the rest */
  unsigned bfs_bu_batch;        /* bottom-up: in-edges loaded at once */
  unsigned bfs_tile_words;      /* bottom-up, convert: bitmap words a
                                   tile */
  int bfs_contiguous;           /* 1: a contiguous range of tiles per
                                   group; 0: round robin */
  unsigned bfs_first_batch;     /* steps queued before the first read-back
                                   of the done flag; doubling up to */
  unsigned bfs_max_batch;
  unsigned bfs_overlap_batch; /* batches of fewer steps wait for their
                                 own flag; larger ones are queued before
                                 the flag of the one before (0: all) */
} prism__cl_policy;

/** The policy for a device: the kind's constants fitted to its limits.
 * Returns 0, or -1 when PRISM_OPENCL_POLICY holds something other than
 * gpu or cpu. */
int prism__cl_choose_policy(const prism__cl_device_facts *facts,
                            prism__cl_policy *out);

#endif /* PRISM_OPENCL_TUNING_H */
