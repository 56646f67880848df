/* SPDX-License-Identifier: MIT */
/*
 * CUB as the reference on NVIDIA devices: the same host data, uploaded by
 * cub_ref itself with cudaMalloc/cudaMemcpy, timed the same way as prism
 * (timing.h: k calls, then cudaStreamSynchronize). Temporary storage is
 * allocated once, outside the timed loop. Built only with CUDA
 * (PRISM_BENCH_HAVE_CUB); the declarations are here either way so that the
 * primitive table can name its CUB counterpart.
 */
#ifndef PRISM_BENCH_CUB_REF_H
#define PRISM_BENCH_CUB_REF_H

#include "prism.h"
#include "timing.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which CUB device algorithm a primitive corresponds to. */
typedef enum cub_ref_algorithm {
  CUB_REF_NONE = 0,
  CUB_REF_REDUCE = 1, /* cub::DeviceReduce::Sum / Min / Max */
  CUB_REF_SCAN = 2,   /* cub::DeviceScan::{Inclusive,Exclusive}{Sum,Scan} */
  CUB_REF_SORT = 3,   /* cub::DeviceRadixSort::Sort{Keys,Pairs}[Descending] */
  CUB_REF_HISTOGRAM_EVEN = 4,    /* cub::DeviceHistogram::HistogramEven */
  CUB_REF_HISTOGRAM_RANGE = 5,   /* cub::DeviceHistogram::HistogramRange */
  CUB_REF_SELECT_IF = 6,         /* cub::DeviceSelect::If */
  CUB_REF_SELECT_FLAGGED = 7,    /* cub::DeviceSelect::Flagged */
  CUB_REF_PARTITION_IF = 8,      /* cub::DevicePartition::If */
  CUB_REF_UNIQUE = 9,            /* cub::DeviceSelect::Unique */
  CUB_REF_SEGMENTED_REDUCE = 10, /* cub::DeviceSegmentedReduce::Sum/Min/Max */
  CUB_REF_SEGMENTED_SCAN = 11,   /* cub::DeviceScan::{In,Ex}clusive{Sum,Scan}
                                    ByKey with keys = segment ids */
  CUB_REF_MERGE = 12,            /* cub::DeviceMerge::Merge{Keys,Pairs} */
  CUB_REF_SEGMENTED_SORT = 13    /* cub::DeviceSegmentedSort::StableSort{Keys,
                                    Pairs}[Descending] */
} cub_ref_algorithm;

typedef enum cub_ref_status {
  CUB_REF_OK = 0,
  CUB_REF_SKIPPED = 1, /* no device, does not fit: msg says why */
  CUB_REF_FAILED = 2   /* a CUDA call failed: msg says which */
} cub_ref_status;

typedef struct cub_ref_request {
  cub_ref_algorithm algorithm;
  prism_type type;
  prism_op op;
  prism_scan_kind kind; /* scan only */
  /* Sort, merge and segmented sort: the order, the bits [begin_bit,
   * end_bit) of the key that take part (sort; segmented sort: all), and the
   * bytes of each value (0: keys only; 4 or 8: values are the keys' input
   * indices). */
  prism_order order;
  size_t value_size;
  unsigned begin_bit, end_bit;
  const void *input; /* n elements on the host */
  size_t n;
  /* Histograms: bins, and [lower, upper) (even) or the bins + 1 edges of
   * type in aux (range). Counters are uint32_t. */
  size_t bins;
  double lower, upper;
  /* select_if, partition_if: x < threshold keeps x. */
  prism_value threshold;
  /* Host data besides the input: the n one-byte flags (select-flagged;
   * segmented scan: head flags, turned into segment ids for CUB's by-key
   * scan), the num_segments + 1 offsets of offset_size bytes (segmented
   * reduce, segmented sort; 4: n < 2^32), or the histogram edges. */
  const void *aux;
  size_t aux_bytes;
  size_t offset_size; /* 4 or 8 */
  /* Merge: the input's first split keys are one sorted run, the rest the
   * other. */
  size_t split;
  size_t num_segments;
  void *result; /* host: the first call's result, for verification, laid
                   out as the primitive's own: reduce one element; scan n
                   elements; sort n keys then n values; histograms bins
                   counters; compaction the count as a uint64_t, then n
                   elements; segmented reduce num_segments elements;
                   segmented scan n elements; merge and segmented sort
                   n keys then n values */
} cub_ref_request;

/* Whether CUDA device `device` can run CUB: 1 with its name, or 0 with the
 * reason (no driver, no device). */
int cub_ref_probe(int device, char *name, size_t name_size, char *why,
                  size_t why_size);

/* Upload, run once (result), then time the request on CUDA device `device`. */
cub_ref_status cub_ref_run(int device, const cub_ref_request *request,
                           const bench_timer *timer, bench_timing *timing,
                           char *msg, size_t msg_size);

/* ---- Top-k (cub_topk.cu) ------------------------------------------------
 *
 * The references of prism_topk (descending, sorted) on NVIDIA devices. A
 * row of its own beside cub_ref_request's because top-k's case has a shape
 * (rows x cols) and a k, and two references, not one. */

typedef enum cub_topk_reference {
  /* CUB's sort of every row, descending, of (key, column) pairs:
   * DeviceRadixSort::Sort{Keys,Pairs}Descending for one row,
   * DeviceSegmentedSort::StableSort{Keys,Pairs}Descending over uniform u32
   * offsets for more (the launchers of cub_sort.cu and
   * cub_segmented_sort.cu). Both stable, so the first k of each row are
   * prism's top k, bit for bit; taking them is free (they are in place),
   * so only the sort is timed. */
  CUB_TOPK_SORT = 0,
  /* The seeds' per-row register top-k: a thread per row keeps the K best
   * keys so far (K = 8, 16, 32 or 64, the least >= k) sorted in registers
   * and inserts each key of its row in turn. */
  CUB_TOPK_REGISTERS = 1
} cub_topk_reference;

/* The largest k the register kernel takes. */
#define CUB_TOPK_REGISTERS_MAX_K 64

typedef struct cub_topk_request {
  cub_topk_reference reference;
  prism_type type;   /* any but u8 */
  const void *input; /* rows x cols keys on the host, row-major */
  size_t rows, cols, k;
  size_t value_size; /* 0: keys only; 4 or 8: each key's column index */
  void *result;      /* host: the first call's rows x k keys, then (with
                        value_size) rows x k indices: prism's layout */
} cub_topk_request;

/* Upload, run once (result), then time the request on CUDA device
 * `device`; name gets the device's name. */
cub_ref_status cub_topk_run(int device, const cub_topk_request *request,
                            const bench_timer *timer, bench_timing *timing,
                            char *name, size_t name_size, char *msg,
                            size_t msg_size);

/* Whether the CUB prism-bench was built with has cub::DeviceTopK (later
 * CCCLs), with CUB's version ("3.0.1") into version. No row times it: the
 * CCCL this was written against has none to build and check. */
int cub_topk_has_device_topk(char *version, size_t version_size);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_CUB_REF_H */
