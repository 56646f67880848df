/* SPDX-License-Identifier: MIT */
/*
 * bfs: direction-optimising breadth-first search (kernels_cl/bfs.cl says
 * what each step does). bfs_init seeds the search; then the steps run
 * - where the policy says so (NVIDIA GPUs without a watchdog: see
 *   prism__cl_choose_policy), in one launch of bfs_persistent: the groups
 *   that run at once take part, and the next search launches as many as
 *   took part in this one (the first, compute units x bfs.groups_per_cu);
 *   then one read of the result;
 * - otherwise (run_steps), in one bfs_step launch per step, queued in
 *   batches (policy.bfs.first_batch, doubling up to bfs.max_batch) with no
 *   read-back in between: each launch derives its step from device memory
 *   and returns at once after the last. After each batch a non-blocking
 *   read fetches the done flag. A batch smaller than bfs.overlap_batch
 *   waits for its own flag before the next is queued: most searches end
 *   within the first few batches, and a launch queued past the end still
 *   costs its enqueue on the host and a short run on the device; the wait
 *   costs one host round trip per small batch, during which the device
 *   idles. From bfs.overlap_batch on (long searches: paths, grids), the
 *   host queues the next batch before it waits for the flag of the batch
 *   before, which ran meanwhile: two batches in flight keep the device
 *   busy across read-backs, at the price of up to two batches queued past
 *   the end. Either way one round trip per batch, not per level.
 * Scratch (one request, regions at 256 bytes): control, two visited
 * bitmaps, two small queues, two item queues.
 */
#include "bfs_step.h"
#include "opencl_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* bfs.cl's state, which the host reads from the control block. */
typedef prism_bfs_state bfs_state;
_Static_assert(sizeof(bfs_state) == PRISM_BFS_STATE_BYTES, "bfs_step.h");

/* bfs.cl's bfs_control: state[2], result, acc[3] of 32 bytes, then
 * grid_barrier, arrivals, groups. */
#define CONTROL_RESULT (2 * sizeof(bfs_state))
#define CONTROL_ACC (3 * sizeof(bfs_state))
#define CONTROL_GROUPS (CONTROL_ACC + 3 * 32 + 2 * 4)
#define CONTROL_BYTES (CONTROL_GROUPS + 4)

/* Scratch regions, in bytes. */
typedef struct bfs_layout {
  cl_ulong visited, visited_bytes; /* per bitmap */
  cl_ulong small, small_bytes;     /* per queue */
  cl_ulong items, items_bytes;
  size_t item_capacity;
  size_t total;
} bfs_layout;

/* Items a step may queue: a large vertex of out-degree d gives at most
 * d / chunk + 1, and a frontier holds each vertex once. */
static bfs_layout plan(size_t n, size_t m, size_t small_degree, size_t chunk) {
  bfs_layout l;
  const size_t words = (n + 31) / 32;
  const size_t large = m / (small_degree + 1);
  l.item_capacity = (large < n ? large : n) + m / chunk + 1;
  l.visited = prism__cl_align(CONTROL_BYTES);
  l.visited_bytes = prism__cl_align(words * sizeof(cl_uint));
  l.small = l.visited + 2 * l.visited_bytes;
  l.small_bytes = prism__cl_align(n * 4 * sizeof(cl_uint)); /* entries */
  l.items = l.small + 2 * l.small_bytes;
  l.items_bytes = prism__cl_align(l.item_capacity * 2 * sizeof(cl_uint));
  l.total = (size_t)(l.items + 2 * l.items_bytes);
  return l;
}

static size_t fit_wg(size_t wg, size_t max_wg) {
  while (max_wg && wg > max_wg)
    wg /= 2;
  return wg;
}

/* Sets args on kernel, from slot 0. */
static prism_status set_args(prism_context *ctx, cl_kernel kernel,
                             const char *name, const prism__cl_arg *args,
                             unsigned nargs) {
  for (unsigned i = 0; i < nargs; i++) {
    cl_int err = clSetKernelArg(kernel, i, args[i].size, args[i].value);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err, "clSetKernelArg(%s, %u)", name, i);
  }
  return PRISM_OK;
}

/* -1 over n int32 (levels, parents). */
static prism_status fill_minus_one(prism_context *ctx, prism__mem buf,
                                   size_t n) {
  const cl_int minus_one = -1;
  return prism__backend_opencl.mem_fill(ctx, buf.native, buf.offset, &minus_one,
                                        sizeof minus_one, n * sizeof(cl_int));
}

/* The step launches in batches, and the wait for DONE. */
static prism_status run_steps(prism_context *ctx, cl_kernel step,
                              unsigned nargs, size_t global, size_t wg,
                              cl_mem scratch, size_t n) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  /* Each top-down or bottom-up step adds a level, and at most every other
   * step converts: far fewer than this many steps. */
  const cl_ulong max_steps = 2 * (cl_ulong)n + 8;
  cl_uint flags[2] = {0, 0};
  cl_event events[2] = {NULL, NULL};
  prism_status st = PRISM_OK;
  size_t batch = pol->bfs.first_batch ? pol->bfs.first_batch : 1;
  cl_ulong k = 0;
  for (unsigned j = 0; st == PRISM_OK; j++) {
    for (size_t i = 0; i < batch && st == PRISM_OK; i++, k++) {
      cl_int err = clSetKernelArg(step, nargs - 1, sizeof k, &k);
      if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(cl->queue, step, 1, NULL, &global, &wg, 0,
                                     NULL, NULL);
      if (err != CL_SUCCESS)
        st = prism__cl_fail(ctx, err, "enqueueing bfs_step %llu",
                            (unsigned long long)k);
    }
    if (st != PRISM_OK)
      break;
    cl_int err = clEnqueueReadBuffer(cl->queue, scratch, CL_FALSE,
                                     CONTROL_RESULT, sizeof(cl_uint),
                                     &flags[j & 1], 0, NULL, &events[j & 1]);
    if (err == CL_SUCCESS)
      err = clFlush(cl->queue);
    if (err != CL_SUCCESS) {
      st = prism__cl_fail(ctx, err, "reading the bfs done flag");
      break;
    }
    /* The flag to wait for: a small batch's own; a large batch's
     * predecessor's, unless it has none or a small one (whose flag has
     * been seen). */
    const unsigned w = (batch < pol->bfs.overlap_batch ? j : j - 1) & 1;
    if (events[w]) {
      cl_event done = events[w];
      events[w] = NULL;
      err = clWaitForEvents(1, &done);
      clReleaseEvent(done);
      if (err != CL_SUCCESS) {
        st = prism__cl_fail(ctx, err, "waiting for a bfs batch");
        break;
      }
      if (flags[w] == PRISM_BFS_PHASE_DONE)
        break;
    }
    if (k > max_steps)
      st = prism__fail(ctx, PRISM_INTERNAL,
                       "OpenCL backend: bfs did not finish in %llu steps",
                       (unsigned long long)k);
    batch = batch * 2 > pol->bfs.max_batch ? pol->bfs.max_batch : batch * 2;
  }
  for (int i = 0; i < 2; i++)
    if (events[i]) {
      clWaitForEvents(1, &events[i]);
      clReleaseEvent(events[i]);
    }
  return st;
}

prism_status prism__cl_bfs(prism_context *ctx, const prism__bfs_args *a) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t wg = fit_wg(pol->bfs.wg, cl->facts.max_wg);
  const size_t chunk = wg * pol->bfs.td_items * pol->bfs.chunk_passes;
  const bfs_layout l = plan(a->n, a->m, pol->bfs.small_degree, chunk);
  if (l.item_capacity > UINT32_MAX)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "OpenCL backend: bfs over %zu edges needs more than "
                       "2^32 queue items",
                       a->m);

  char options[768];
  prism__cl_options(
      options, sizeof options, PRISM_U32, PRISM_SUM,
      "-DPRISM_WG=%zu -DPRISM_BFS_PARENTS=%d "
      "-DPRISM_BFS_TD_ITEMS=%u -DPRISM_BFS_CHUNK_PASSES=%u "
      "-DPRISM_BFS_SMALL_DEGREE=%u -DPRISM_BFS_TD_FILTER_EDGES=%u "
      "-DPRISM_BFS_BU_THREAD_EDGES=%u -DPRISM_BFS_BU_BATCH=%u "
      "-DPRISM_BFS_TILE_WORDS=%u -DPRISM_BFS_CONTIGUOUS=%d "
      "-DPRISM_BFS_PERSISTENT=%d -DPRISM_BFS_DISCOVERY_POLLS=%u "
      "-DPRISM_BFS_PTX_FENCE=%d%s",
      wg, a->parents.native ? 1 : 0, pol->bfs.td_items, pol->bfs.chunk_passes,
      pol->bfs.small_degree, pol->bfs.td_filter_edges, pol->bfs.bu_thread_edges,
      pol->bfs.bu_batch, pol->bfs.tile_words, pol->bfs.contiguous ? 1 : 0,
      pol->bfs.persistent ? 1 : 0, pol->bfs.discovery_polls,
      cl->facts.nvidia ? 1 : 0,
      /* Its launches are its own (not prism__cl_launch's): PRISM_VIEWS
       * chosen here, where levels or parents is a view. */
      a->levels.offset || a->parents.offset ? " -DPRISM_VIEWS" : "");
  const char *steps = pol->bfs.persistent ? "bfs_persistent" : "bfs_step";
  cl_kernel init, step;
  prism_status st = prism__cl_kernel(ctx, "bfs.cl", options, "bfs_init", &init);
  if (st == PRISM_OK)
    st = prism__cl_kernel(ctx, "bfs.cl", options, steps, &step);
  if (st != PRISM_OK)
    return st;
  void *native;
  if ((st = prism__scratch(ctx, l.total, &native)) != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;

  /* Levels and parents start at -1; the control block and the first
   * bitmap at 0 (the second is written whole by the first bottom-up
   * step). */
  const cl_uint zero = 0;
  cl_int err = clEnqueueFillBuffer(cl->queue, scratch, &zero, sizeof zero, 0,
                                   CONTROL_BYTES, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueFillBuffer(cl->queue, scratch, &zero, sizeof zero,
                              (size_t)l.visited, (size_t)l.visited_bytes, 0,
                              NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueFillBuffer(bfs scratch)");
  if ((st = fill_minus_one(ctx, a->levels, a->n)) != PRISM_OK ||
      (a->parents.native &&
       (st = fill_minus_one(ctx, a->parents, a->n)) != PRISM_OK))
    return st;

  /* Without parents, the kernels never touch their argument. The last
   * argument is the source for bfs_init, the step k for bfs_step (none for
   * bfs_persistent). */
  const prism__mem parents = a->parents.native ? a->parents : a->levels;
  const cl_ulong m = a->m;
  const cl_uint n = (cl_uint)a->n;
  const cl_uint directed = !prism__mem_same(a->in_offsets, a->offsets);
  const cl_uint item_capacity = (cl_uint)l.item_capacity;
  /* Options beyond float's range mean "always" / "never" all the same. */
  const cl_float alpha =
      a->alpha > 3e38 ? (cl_float)INFINITY : (cl_float)a->alpha;
  const cl_float beta = a->beta > 3e38 ? (cl_float)INFINITY : (cl_float)a->beta;
  const cl_uint source = (cl_uint)a->source;
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->offsets),
                                PRISM__CL_MEM(a->cols),
                                PRISM__CL_MEM(a->in_offsets),
                                PRISM__CL_MEM(a->in_cols),
                                PRISM__CL_ARG(m),
                                PRISM__CL_ARG(n),
                                PRISM__CL_ARG(directed),
                                PRISM__CL_MEM(a->levels),
                                PRISM__CL_MEM(parents),
                                PRISM__CL_ARG(scratch),
                                PRISM__CL_ARG(l.visited),
                                PRISM__CL_ARG(l.visited_bytes),
                                PRISM__CL_ARG(l.small),
                                PRISM__CL_ARG(l.small_bytes),
                                PRISM__CL_ARG(l.items),
                                PRISM__CL_ARG(l.items_bytes),
                                PRISM__CL_ARG(item_capacity),
                                PRISM__CL_ARG(alpha),
                                PRISM__CL_ARG(beta),
                                PRISM__CL_ARG(source)};
  const unsigned nargs = PRISM__CL_NARGS(args);
  if ((st = prism__cl_launch(ctx, init, "bfs_init", args, nargs, 1, 1)) !=
          PRISM_OK ||
      (st = set_args(ctx, step, steps, args, nargs - 1)) != PRISM_OK)
    return st;

  size_t groups = (size_t)cl->facts.compute_units * pol->bfs.groups_per_cu;
  unsigned *took_part = &cl->bfs_groups[a->parents.native ? 1 : 0];
  if (pol->bfs.persistent && *took_part)
    groups = *took_part;
  if (!groups)
    groups = 1;
  size_t global = groups * wg;
  if (pol->bfs.persistent) {
    err = clEnqueueNDRangeKernel(cl->queue, step, 1, NULL, &global, &wg, 0,
                                 NULL, NULL);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err, "enqueueing bfs_persistent");
  } else if ((st = run_steps(ctx, step, nargs, global, wg, scratch, a->n)) !=
             PRISM_OK) {
    return st;
  }

  /* The result, and how many groups of bfs_persistent took part. */
  cl_uchar tail[CONTROL_BYTES - CONTROL_RESULT];
  err = clEnqueueReadBuffer(cl->queue, scratch, CL_TRUE, CONTROL_RESULT,
                            sizeof tail, tail, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(bfs result)");
  bfs_state result;
  memcpy(&result, tail, sizeof result);
  if (pol->bfs.persistent)
    memcpy(took_part, tail + (CONTROL_GROUPS - CONTROL_RESULT),
           sizeof *took_part);
  if (result.phase != PRISM_BFS_PHASE_DONE)
    return prism__fail(ctx, PRISM_INTERNAL, "OpenCL backend: bfs did not end");
  a->result->levels = (size_t)result.levels;
  a->result->reached = (size_t)result.reached;
  a->result->reached_edges = (size_t)result.reached_edges;
  return PRISM_OK;
}
