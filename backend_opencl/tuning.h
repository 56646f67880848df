/* SPDX-License-Identifier: MIT */
/*
 * Tuning policies of the OpenCL backend: one struct of named constants per
 * device kind, a member per primitive, chosen and fitted to the device at
 * context creation. The algorithms read their shapes from here and nowhere
 * else, so retuning a device is a data change. What each knob trades is
 * said here; the measurements behind the values are in
 * docs/results/tuning-opencl.md, a section per primitive.
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

/* reduce_partials / reduce_final (reduce.cl). */
typedef struct prism__cl_reduce_policy {
  unsigned wg;            /* work-items per work-group */
  unsigned vec_bytes;     /* bytes per vector load */
  int chunked;            /* 1: contiguous chunk per work-item (CPUs);
                             0: grid-stride loop (GPUs) */
  unsigned groups_per_cu; /* work-groups at most, per CU: occupancy
                             against partials to combine */
  size_t per_group_min;   /* elements a work-group is worth: fewer groups
                             for small n, one (and one launch) below this */
} prism__cl_reduce_policy;

/* scan: look-back (scan.cl) or reduce-then-scan (scan_chunks.cl). */
typedef struct prism__cl_scan_policy {
  int lookback;             /* 1: scan_lookback, one pass (~2n words), needs
                               running groups to progress; 0: the chunks
                               (~3n words) */
  unsigned wg;              /* look-back: work-items per work-group */
  unsigned items_4;         /* elements per work-item and tile, 4-byte T:
                               fewer tiles (look-back steps) against local
                               memory; odd, for the bank-free serial passes */
  unsigned items_8;         /* the same for 8-byte T */
  unsigned lb_window;       /* predecessor statuses read at once: fewer
                               rounds against wasted loads */
  unsigned single_tiles;    /* n up to this many tiles: scan_single_block,
                               one launch instead of two */
  unsigned chunk_wg;        /* chunks: work-items per work-group */
  unsigned chunk_vec_bytes; /* bytes per vector step */
  unsigned chunks_per_cu;   /* chunks (work-items) per compute unit:
                               balance against partials */
  size_t chunk_min;         /* elements a chunk is worth: below
                               2 * chunk_min, one chunk and one launch */
} prism__cl_scan_policy;

/* sort: sort_single.cl, Onesweep (sort_upsweep.cl, sort_onesweep.cl) or
 * the classic passes (sort_classic.cl). */
typedef struct prism__cl_sort_policy {
  unsigned radix_bits; /* bits per digit: one pass each; passes against
                          the RADIX-wide tables */
  size_t single_max;   /* n up to this: sort_single_block, one work-group
                          and one launch */
  unsigned wg;         /* work-items per work-group (tiles, single block) */
  unsigned items_4;    /* keys per work-item and tile, 4-byte keys: fewer
                          tiles against local memory */
  unsigned items_8;    /* the same for 8-byte keys */
  int onesweep;        /* 1: Onesweep, one read and write of the keys per
                          pass, needs running groups to progress; 0: the
                          classic count / scan / scatter */
  unsigned hist_groups_per_cu; /* sort_histogram work-groups, per CU */
  unsigned chunk_wg;           /* classic: work-items per work-group */
  unsigned chunks_per_cu;      /* classic: chunks (work-items) per CU */
  size_t chunk_min;            /* classic: keys a chunk is worth */
} prism__cl_sort_policy;

/* gather / scatter (gather_scatter.cl). */
typedef struct prism__cl_gather_scatter_policy {
  unsigned wg;   /* work-items per work-group, one element each */
  size_t launch; /* positions per launch at most: a multiple of wg, at
                    most 2^32 (32-bit first-bad slots) */
} prism__cl_gather_scatter_policy;

/* compaction: look-back (select_lookback, select_single_block;
 * partitions count first with select_count + select_offsets) or chunks,
 * one work-item each (select_count, select_offsets, select_chunks). */
typedef struct prism__cl_select_policy {
  int lookback;                 /* 1: one pass, needs running groups to
                                   progress; 0: count / offsets / write */
  unsigned wg;                  /* look-back: work-items per work-group */
  unsigned items_1;             /* elements per work-item and tile, bytes (at
                                   most 32: one bit each) */
  unsigned items_4;             /* the same for 4-byte elements */
  unsigned items_8;             /* the same for 8-byte elements */
  unsigned lb_window;           /* predecessor statuses read at once */
  unsigned single_tiles;        /* n up to this many tiles: one work-group */
  unsigned count_groups_per_cu; /* select_count work-groups, per CU */
  unsigned chunks_per_cu;       /* chunks: chunks per compute unit */
  size_t chunk_min;             /* chunks: elements a chunk is worth:
                                   below 2 * chunk_min, one chunk and one
                                   launch */
} prism__cl_select_policy;

/* histogram: local-memory histograms per work-group, or global atomics
 * for too many bins (histogram_blocks, histogram_atomic); or private
 * tables per chunk and a merge (histogram_chunks, histogram_merge). */
typedef struct prism__cl_hist_policy {
  int private_tables;     /* 1: chunks + merge; 0: blocks / atomic */
  unsigned wg;            /* work-items per work-group (blocks, atomic) */
  unsigned items_1;       /* samples per work-item and tile, bytes */
  unsigned items_4;       /* the same for 4-byte samples */
  unsigned items_8;       /* the same for 8-byte samples */
  unsigned groups_per_cu; /* work-groups per compute unit (a wave) */
  size_t local_bytes;     /* a group's local counters (and edges) at
                             most; bins beyond split into ranges */
  size_t replica_bytes;   /* a group's replicas of its counters take at
                             most this much together: fewer collisions
                             against local memory */
  unsigned max_replicas;  /* replicas at most (one per 32 work-items) */
  unsigned max_ranges;    /* bin ranges at most (each rereads the
                             samples); beyond, atomics */
  unsigned chunks_per_cu; /* chunks (work-items) per compute unit */
  size_t chunk_min;       /* samples a chunk is worth */
  unsigned copies;        /* tables per chunk (interleaved samples): no
                             wait on the last increment of a bin's run */
  size_t copies_bytes;    /* copies only while a chunk's tables fit */
  size_t private_bytes;   /* every chunk's tables at most: beyond, fewer
                             chunks, then histogram_atomic */
  unsigned merge_wg;      /* histogram_merge work-items per group */
} prism__cl_hist_policy;

/* segmented: look-back tiles (seg_scan_lookback, seg_scan_single_block,
 * seg_reduce_search, seg_reduce_tiles) or contiguous chunks, one
 * work-item each (seg_scan_reduce_chunks, seg_scan_partials,
 * seg_scan_chunks, seg_reduce_chunks, seg_reduce_carries); seg_init,
 * seg_mark and seg_reduce_segments serve both. */
typedef struct prism__cl_seg_policy {
  int lookback;           /* 1: tiles with look-back; 0: chunks */
  unsigned wg;            /* work-items per work-group */
  unsigned items_4;       /* scan: elements per work-item and tile,
                             4-byte T */
  unsigned items_8;       /* the same for 8-byte T */
  unsigned merge_items_4; /* reduce: merge items (elements and segment
                             bounds) per work-item and tile, 4-byte T */
  unsigned merge_items_8; /* the same for 8-byte T */
  unsigned lb_window;     /* predecessor statuses read at once */
  unsigned single_tiles;  /* scan: n up to this many tiles: one
                             work-group */
  unsigned chunks_per_cu; /* chunks per compute unit */
  size_t chunk_min;       /* elements (reduce: merge items) a chunk is
                             worth */
  unsigned mark_segments; /* seg_mark: segments per work-item, with
                             look-back (chunks: one share each) */
} prism__cl_seg_policy;

/* bfs: one launch for the search (bfs_persistent) or one per step
 * (bfs_step), work-groups of wg; see kernels_cl/bfs.cl. */
typedef struct prism__cl_bfs_policy {
  int persistent;           /* 1: one launch for the search (no launch
                               per level; needs a fence across groups) */
  unsigned discovery_polls; /* persistent: reads of the arrival count
                               without a change before a group stops
                               waiting for more */
  unsigned wg;              /* work-items per work-group */
  unsigned groups_per_cu;   /* work-groups launched, per CU */
  unsigned td_items;        /* top-down edges per work-item and pass */
  unsigned chunk_passes;    /* passes per item: an item holds wg x
                               td_items x this edges */
  unsigned small_degree;    /* out-degree up to which a vertex is
                               expanded in its tile; above, in items */
  unsigned td_filter_edges; /* top-down: frontier out-edges above which
                               candidates are filtered by a plain load
                               before the atomic_or */
  unsigned bu_thread_edges; /* bottom-up: in-edges a work-item scans
                               alone (0: all); the group the rest */
  unsigned bu_batch;        /* bottom-up: in-edges loaded at once */
  unsigned tile_words;      /* bottom-up, convert: bitmap words a tile */
  int contiguous;           /* 1: a contiguous range of tiles per group;
                               0: round robin */
  unsigned first_batch;     /* steps queued before the first read-back of
                               the done flag: launches past the end
                               against waits; doubling up to */
  unsigned max_batch;
  unsigned overlap_batch; /* batches of fewer steps wait for their own
                             flag; larger ones are queued before the flag
                             of the one before (0: all) */
} prism__cl_bfs_policy;

/* SpMV on core's merge-path tiles (spmv.cl): each tile staged in local
 * memory by a work-group (spmv_tiles, GPUs), or walked from global memory
 * by one work-item (spmv_tiles_serial, CPUs); the rows split between
 * tiles finished by spmv_fix_short / spmv_fix_long. */
typedef struct prism__cl_spmv_policy {
  int serial;          /* 1: spmv_tiles_serial, one work-item per tile, a
                          plain row loop (CPUs); 0: spmv_tiles (GPUs) */
  unsigned wg;         /* work-items per work-group, every spmv kernel
                          (serial: 1) */
  unsigned items_4;    /* staged: merge items (row ends and entries) per
                          work-item, 4-byte T: fewer split rows and
                          groups against local memory (4 + T bytes each) */
  unsigned items_8;    /* the same for 8-byte T */
  size_t serial_tile;  /* serial: merge items per tile: fewer split rows
                          and groups against balance over the cores */
  unsigned fix_splits; /* short split rows per spmv_fix_short work-item:
                          1 on GPUs; more on CPUs, where a work-item per
                          group makes each a group */
} prism__cl_spmv_policy;

/* The __local bytes spmv_tiles declares for wg work-items of items merge
 * items of t_bytes values: the row ends (one more, the open row), the
 * products, the keyed scan's double buffer of (uint key, T value) pairs
 * (padded to 2 T). The host passes it to the kernel, which checks at
 * compile time that what it declares fits. Pure preprocessor. */
#define PRISM__CL_SPMV_LOCAL(wg, items, t_bytes)                               \
  (((wg) * (items) + 1) * 4 + (wg) * (items) * (t_bytes) +                     \
   2 * (wg)*2 * (t_bytes))

/* Transpose (transpose.cl): a work-group moves a tile of tr x tc elements
 * (powers of two) through local memory (transpose_tiles, GPUs), or a
 * work-item moves blocks of that shape straight from global memory
 * (transpose_blocks, CPUs). The tile is side x side, or the matrix's short
 * side whole and the rest of the tile along the long one. */
typedef struct prism__cl_transpose_policy {
  int blocked;            /* 1: transpose_blocks (CPUs); 0: transpose_tiles */
  unsigned wg;            /* work-items per work-group (blocked: 1) */
  unsigned side;          /* the square tile's side, a power of two */
  unsigned tile_1;        /* elements per tile, 1-byte elements: a power of
                             two, a multiple of wg; larger tiles mean fewer
                             groups and more loads in flight against local
                             memory (tiles: 1.5 x tile elements) */
  unsigned tile_2;        /* the same for 2-byte elements */
  unsigned tile_4;        /* the same for 4-byte elements */
  unsigned tile_8;        /* the same for 8-byte elements */
  unsigned packed_side;   /* tiles: the packed path's (core/backend.h,
                             prism__transpose_pack) square side, in blocks
                             of w x w elements (w words each) */
  unsigned packed_tile;   /* its blocks per tile (packed_side^2, a
                             multiple of wg); 0: no packed path */
  unsigned groups_per_cu; /* tiles: work-groups launched per CU, each
                             looping over tiles; blocked: work-items per
                             CU, each a contiguous range of blocks */
} prism__cl_transpose_policy;

/* The __local bytes transpose_tiles declares for a tile of tile elements
 * of e_bytes: the tile, its rows padded to an odd number of words
 * (as core/backend.h says: 4 / e_bytes elements below 4 bytes, else 1;
 * at most tile / 2 rows: tc >= 2). Pure preprocessor. */
#define PRISM__CL_TRANSPOSE_LOCAL(tile, e_bytes)                               \
  (((tile) + ((e_bytes) < 4 ? 4 / (e_bytes) : 1) * (tile) / 2) * (e_bytes))
/* The same for the packed path's tile of tile blocks of w words of
 * word_bytes: w planes of the tile, rows padded by one word. */
#define PRISM__CL_TRANSPOSE_PACKED_LOCAL(tile, w, word_bytes)                  \
  ((w) * ((tile) + (tile) / 2) * (word_bytes))

/* Stencils (stencil.cl). GPUs, as backend_cuda/stencil.cu: stencil_1d (a
 * work-group of wg stages wg x items_1d points and the halo), stencil_2d
 * (a work-group of 32 x rows_2d, a (32 x cols_2d_<value bytes>) x (rows_2d
 * x items_2d) tile: stars, radius 0, and full boxes below box_min_r),
 * stencil_2d_box (full 2-D boxes of radii box_min_r .. box_max_r, a
 * work-group of 32 x rows_2d, each work-item box_rows consecutive rows of
 * a column: a 32 x (rows_2d x box_rows) tile), stencil_3d_ring (a work-group
 * of 32 x rows_3d marching along z over chunk_3d planes of a 32 x (rows_3d
 * x items) column, items_3d halved while the ring does not fit local
 * memory: prism__cl_stencil_ring_items; radii up to ring_max_r),
 * stencil_direct (a point per work-item: other 3-D radii). CPUs:
 * stencil_rows, a work-item per run of up to run points along x of a row
 * (or whole rows, run points at least), every tap read straight from
 * global memory. */
typedef struct prism__cl_stencil_policy {
  int rows;               /* 1: stencil_rows (CPUs); 0: the tile kernels */
  unsigned wg;            /* stencil_1d and stencil_direct work-items per
                             work-group (rows: work-items per group) */
  unsigned items_1d;      /* 1-D: points per work-item */
  unsigned rows_2d;       /* 2-D and the box: work-groups of 32 x rows_2d */
  unsigned items_2d;      /* 2-D: rows of cols_2d_* points per work-item:
                             taps shared by more points against local
                             memory */
  unsigned cols_2d_4;     /* 2-D: points per work-item along x, 4-byte
                             values (more than 8-byte ones: as many bytes
                             in flight) */
  unsigned cols_2d_8;     /* as much, 8-byte values */
  unsigned box_min_r;     /* 2-D full boxes of radii box_min_r .. */
  unsigned box_max_r;     /* .. box_max_r (0 .. 8) take stencil_2d_box;
                             others stencil_2d */
  unsigned box_rows;      /* the box: rows per work-item */
  unsigned rows_3d;       /* 3-D ring: work-groups of 32 x rows_3d */
  unsigned items_3d;      /* 3-D ring: points a plane per work-item, at
                             most (halved to fit local memory) */
  unsigned chunk_3d;      /* 3-D ring: planes per chunk: each chunk reads
                             2r halo planes more */
  unsigned ring_max_r;    /* 3-D: radii 1 .. this on the ring (0 .. 2) */
  unsigned groups_per_cu; /* tile kernels: work-groups per CU at most,
                             each looping over tiles */
  size_t run;             /* rows: points per work-item along x: its
                             taps' rows stay in the caches */
} prism__cl_stencil_policy;

/* The __local bytes of the stencil tile kernels (and their weights) for
 * T of t_bytes, radius up to rmax (box and ring: the radius). Pure
 * preprocessor. */
#define PRISM__CL_STENCIL_1D_LOCAL(wg, items, rmax, t_bytes)                   \
  (((wg) * (items) + 4 * (rmax) + 1) * (t_bytes))
#define PRISM__CL_STENCIL_2D_LOCAL(rows, items, cols, rmax, t_bytes)           \
  (((32 * (cols) + 2 * (rmax)) * ((rows) * (items) + 2 * (rmax)) +             \
    (2 * (rmax) + 1) * (2 * (rmax) + 1)) *                                     \
   (t_bytes))
#define PRISM__CL_STENCIL_BOX_LOCAL(rows, items, r, t_bytes)                   \
  (((32 + 2 * (r)) * ((rows) * (items) + 2 * (r)) +                            \
    (2 * (r) + 1) * (2 * (r) + 1)) *                                           \
   (t_bytes))
#define PRISM__CL_STENCIL_3D_LOCAL(rows, items, r, t_bytes)                    \
  (((2 * (r) + 1) * (32 + 2 * (r)) * ((rows) * (items) + 2 * (r)) +            \
    (2 * (r) + 1) * (2 * (r) + 1) * (2 * (r) + 1)) *                           \
   (t_bytes))

/* Merge (merge.cl), as backend_cuda/merge.cu: merge_partition searches
 * one tile boundary a work-item; merge_tiles merges a tile of wg x
 * items_<key bytes> outputs a work-group, through local memory, each
 * work-item items consecutive ones. */
typedef struct prism__cl_merge_policy {
  unsigned wg;           /* merge_tiles work-items per work-group */
  unsigned items_4;      /* outputs per work-item, 4-byte keys: fewer
                            tiles (boundary searches, groups) and fewer
                            work-items searching each tile against local
                            memory (key + 4 bytes an output for pairs);
                            odd, so the work-items' blocked passes over
                            local memory touch every bank once */
  unsigned items_8;      /* the same for 8-byte keys */
  unsigned partition_wg; /* merge_partition work-items per work-group */
  size_t launch;         /* work-items per launch at most, either kernel
                            (a ulong base each): tile and boundary numbers
                            may pass 2^32 */
} prism__cl_merge_policy;

/* The __local bytes merge_tiles declares for wg work-items of items
 * outputs of key_bytes keys: the tile's keys, and for pairs (value_bytes
 * not 0) each output's source position (an int). The host passes it to
 * the kernel, which checks at compile time that what it declares fits.
 * Pure preprocessor. */
#define PRISM__CL_MERGE_LOCAL(wg, items, key_bytes, value_bytes)               \
  ((wg) * (items) * ((key_bytes) + ((value_bytes) ? 4 : 0)))

/* Segmented sort (segmented_sort.cl, as backend_cuda/segmented_sort.cu):
 * segsort_classify splits the segments by length into SMALL ones
 * (segsort_small: a work-group ranks one in local memory by counting),
 * BLOCK ones (segsort_global: a work-group's radix sort of one through
 * global memory, sort_single.cl) and DEVICE ones (the device-wide sort,
 * one by one). */
typedef struct prism__cl_segsort_policy {
  unsigned classify_wg;   /* segsort_classify work-items per work-group: a
                             global atomic per class per group */
  size_t small_max;       /* the longest SMALL segment: its L^2 / small_wg
                             comparisons a work-item against a block sort's
                             passes (and the local memory of 2 keys each) */
  unsigned small_wg;      /* segsort_small work-items per work-group */
  size_t block_max;       /* the longest BLOCK segment: one work-group's
                             serial tiles against the device-wide sort's
                             launches and host loop (one segment at a time) */
  unsigned block_wg;      /* segsort_global work-items per work-group */
  unsigned block_items_4; /* keys per work-item and tile, 4-byte keys */
  unsigned block_items_8; /* the same for 8-byte keys */
  unsigned device_groups_per_cu; /* DEVICE segments at least this many
                                    per compute unit go to segsort_global,
                                    a work-group each, in one launch
                                    rather than device-wide one after
                                    another (0: never) */
  size_t launch; /* work-items per launch at most, any of the kernels (a
                    ulong base each) */
} prism__cl_segsort_policy;

/* The __local bytes segsort_small declares for segments of up to
 * small_max keys of key_bytes: the keys and their order. The host passes
 * it to the kernel, which checks at compile time that what it declares
 * fits. Pure preprocessor. */
#define PRISM__CL_SEGSORT_SMALL_LOCAL(small_max, key_bytes)                    \
  ((small_max)*2 * (key_bytes))

/* Top-k (topk.cl, as backend_cuda/topk.cu): a row of up to a row tile
 * (rows_wg x rows_items_*) is chosen by one work-group (topk_rows); a
 * longer one by a radix select over the device: topk_init, topk_pass /
 * topk_choose pairs, then (sorted) topk_compose and the sort, and
 * topk_finish. */
#define PRISM__CL_TOPK_TILES 2
typedef struct prism__cl_topk_policy {
  /* topk_rows work-items per work-group. */
  unsigned rows_wg;
  /* Keys per work-item of the row tiles, 4-byte keys, smaller first (0:
   * no tile): a row takes the least tile that holds it, so short rows
   * keep fewer registers and less local memory (key + 4 bytes a key) per
   * group; the largest is the longest row one work-group chooses, against
   * the device-wide passes. */
  unsigned rows_items_4[PRISM__CL_TOPK_TILES];
  unsigned rows_items_8[PRISM__CL_TOPK_TILES]; /* the same, 8-byte keys */
  /* topk_init, topk_pass and topk_choose work-items per work-group. */
  unsigned pass_wg;
  /* topk_pass elements per work-item and tile: one pair of global atomics
   * (chosen, candidates) a tile, against registers. */
  unsigned pass_items;
  /* 1: each pass group reads a contiguous range (CPUs); 0: grid-stride
   * over tiles (GPUs). */
  int chunked;
  /* topk_pass work-groups per compute unit at most: each flushes its
   * 2048-bin histogram with global atomics. */
  unsigned pass_groups_per_cu;
  /* Elements a pass work-group is worth: fewer groups for shorter rows. */
  size_t pass_group_min;
  /* A candidate buffer holds cols / cand_div keys and columns, at least
   * cand_min (clipped to cols): scratch against passes that reread the
   * source while the bucket is larger. */
  size_t cand_div;
  size_t cand_min;
  /* topk_compose and topk_finish work-items per work-group (a rank
   * each). */
  unsigned finish_wg;
  /* Work-items per launch at most, topk_rows, topk_compose and
   * topk_finish (a ulong base each). */
  size_t launch;
} prism__cl_topk_policy;

/* The __local bytes topk_rows declares for wg work-items of items keys of
 * key_bytes: the row's keys (then images) and columns, the 256-bin
 * histogram, the scan's buffer, the digit found. The host passes it to
 * the kernel, which checks at compile time that what it declares fits.
 * Pure preprocessor. */
#define PRISM__CL_TOPK_ROWS_LOCAL(wg, items, key_bytes)                        \
  ((wg) * (items) * ((key_bytes) + 4) + 256 * 4 + 2 * (wg)*4 + 16)

typedef struct prism__cl_policy {
  const char *name; /* "gpu", "cpu": shows in logs and the disk cache key */
  prism__cl_reduce_policy reduce;
  prism__cl_scan_policy scan;
  prism__cl_sort_policy sort;
  prism__cl_gather_scatter_policy gather_scatter;
  prism__cl_select_policy select;
  prism__cl_hist_policy hist;
  prism__cl_seg_policy seg;
  prism__cl_bfs_policy bfs;
  prism__cl_spmv_policy spmv;
  prism__cl_transpose_policy transpose;
  prism__cl_stencil_policy stencil;
  prism__cl_merge_policy merge;
  prism__cl_segsort_policy segsort;
  prism__cl_topk_policy topk;
} prism__cl_policy;

/** The policy for a device: the kind's constants fitted to its limits.
 * Returns 0, or -1 when PRISM_OPENCL_POLICY holds something other than
 * gpu or cpu. */
int prism__cl_choose_policy(const prism__cl_device_facts *facts,
                            prism__cl_policy *out);

/** The transpose tile (elements) of policy p for elements of e_bytes. */
unsigned prism__cl_transpose_tile(const prism__cl_transpose_policy *p,
                                  size_t e_bytes);

/** 2-D: policy p's points per work-item along x for values of t_bytes. */
unsigned prism__cl_stencil_cols(const prism__cl_stencil_policy *p,
                                size_t t_bytes);

/** 3-D ring: policy p's points a plane per work-item at radius r for
 * values of t_bytes: items_3d, halved while the ring would not fit
 * local_mem bytes (0: not known, items_3d). */
unsigned prism__cl_stencil_ring_items(const prism__cl_stencil_policy *p,
                                      unsigned r, size_t t_bytes,
                                      size_t local_mem);

#endif /* PRISM_OPENCL_TUNING_H */
