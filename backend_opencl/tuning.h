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
} prism__cl_policy;

/** The policy for a device: the kind's constants fitted to its limits.
 * Returns 0, or -1 when PRISM_OPENCL_POLICY holds something other than
 * gpu or cpu. */
int prism__cl_choose_policy(const prism__cl_device_facts *facts,
                            prism__cl_policy *out);

#endif /* PRISM_OPENCL_TUNING_H */
