/* Device policies: the constants, and fitting them to a device. */
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

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
};

/*
 * CPUs (PoCL): work-groups of one work-item, each streaming one contiguous
 * chunk with 64-byte vectors (one AVX-512 register; two AVX2 ones), four
 * chunks per core for balance. The SIMD comes from the vector types: PoCL
 * vectorises across the work-items of a group, which for contiguous
 * chunks means gathers. Measured on PoCL 3.1, 2 cores, 2^24 int32: a
 * grid-stride reduce (16 x 16) took 140 ms against 2.5 ms chunked; scan
 * CPU time with 4-, 16-, 32- and 64-byte steps 20, 23, 18, 15 ms; groups of
 * 8 work-items no better than 1. No look-back: reduce-then-scan needs no
 * promise about which work-groups run at the same time. Sort: the classic
 * count / scan / scatter passes, one contiguous chunk per work-item, four
 * per core; up to 32768 keys, one work-item sorts them all (serial
 * counting sorts, one launch). Gather/scatter: one element per work-item
 * in groups of 64, which PoCL runs as vector loops over the work-items
 * (the indexed side is a gather or scatter either way).
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

int prism__cl_choose_policy(const prism__cl_device_facts *facts,
                            prism__cl_policy *out) {
  /* PRISM_OPENCL_POLICY=gpu|cpu overrides the choice: to run the look-back
   * path on a CPU in tests, or to measure one kind's shapes on the other. */
  const char *force = getenv("PRISM_OPENCL_POLICY");
  if (force && strcmp(force, "gpu") == 0)
    *out = gpu_policy;
  else if (force && strcmp(force, "cpu") == 0)
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
  if (out->scan_lb_window > out->scan_wg)
    out->scan_lb_window = out->scan_wg;
  if (facts->local_mem) {
    out->scan_items_4 = fit_items(out->scan_items_4, out, facts->local_mem, 4);
    out->scan_items_8 = fit_items(out->scan_items_8, out, facts->local_mem, 8);
    out->sort_items_4 =
        fit_sort_items(out->sort_items_4, out, facts->local_mem, 4);
    out->sort_items_8 =
        fit_sort_items(out->sort_items_8, out, facts->local_mem, 8);
  }
  /* Vector loads are aligned by construction only as far as buffers are. */
  while (facts->base_align && out->reduce_vec_bytes > facts->base_align)
    out->reduce_vec_bytes /= 2;
  while (facts->base_align && out->chunk_vec_bytes > facts->base_align)
    out->chunk_vec_bytes /= 2;
  return 0;
}
