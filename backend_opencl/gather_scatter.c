/* SPDX-License-Identifier: MIT */
/*
 * gather / scatter: move_elements, one element per work-item, in launches
 * of at most policy.gather_scatter.launch positions with a ulong base, so n may
 * pass 2^32. Unchecked, that is all, and it is queued. With first_bad, each
 * launch owns one 32-bit slot in scratch (filled with ~0 first) where its
 * work-groups atomic_min the first bad position relative to the launch's
 * base; move_first_bad (one work-item) turns the slots into one ulong and
 * a small blocking read brings it back.
 */
#include "opencl_internal.h"

#include <stdint.h>

prism_status prism__cl_gather_scatter(prism_context *ctx,
                                      const prism__gather_scatter_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  static const char *const index_name[] = {"I32", "U32", "F32",
                                           "I64", "U64", "F64"};
  const int checked = args->first_bad != NULL;
  const size_t wg = pol->gather_scatter.wg;
  const size_t per_launch = pol->gather_scatter.launch;
  const size_t launches = (args->n + per_launch - 1) / per_launch;

  /* The elements as raw bits: uint or ulong. */
  char options[256];
  prism__cl_options(options, sizeof options,
                    args->element_size == 8 ? PRISM_U64 : PRISM_U32, PRISM_SUM,
                    "-DPRISM_WG=%zu -DPRISM_INDEX_%s -DPRISM_SCATTER=%d "
                    "-DPRISM_CHECKED=%d",
                    wg, index_name[args->index_type], args->scatter ? 1 : 0,
                    checked);
  cl_kernel move, first_bad = NULL;
  prism_status st = prism__cl_kernel(ctx, "gather_scatter.cl", options,
                                     "move_elements", &move);
  if (st == PRISM_OK && checked)
    st = prism__cl_kernel(ctx, "gather_scatter.cl", options, "move_first_bad",
                          &first_bad);
  if (st != PRISM_OK)
    return st;

  /* Scratch (checked only): one slot per launch, then the result. */
  const cl_ulong slots_offset = 0;
  const cl_ulong result_offset = prism__cl_align(launches * sizeof(cl_uint));
  cl_mem scratch = NULL;
  if (checked) {
    void *native;
    st = prism__scratch(ctx, (size_t)result_offset + sizeof(cl_ulong), &native);
    if (st != PRISM_OK)
      return st;
    scratch = (cl_mem)native;
    const cl_uint none = UINT32_MAX;
    cl_int err = clEnqueueFillBuffer(cl->queue, scratch, &none, sizeof none,
                                     (size_t)slots_offset,
                                     launches * sizeof(cl_uint), 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return prism__cl_fail(ctx, err, "clEnqueueFillBuffer(move slots)");
  }

  const cl_ulong n = args->n;
  const cl_ulong bound = args->bound;
  for (size_t c = 0; c < launches; c++) {
    const cl_ulong base = (cl_ulong)c * per_launch;
    size_t count = args->n - (size_t)base;
    if (count > per_launch)
      count = per_launch;
    const size_t global = (count + wg - 1) / wg * wg;
    const cl_ulong slot_offset = slots_offset + c * sizeof(cl_uint);
    const prism__cl_arg move_args[] = {
        PRISM__CL_MEM(args->in),  PRISM__CL_MEM(args->indices),
        PRISM__CL_MEM(args->out), PRISM__CL_ARG(base),
        PRISM__CL_ARG(n),         PRISM__CL_ARG(bound),
        PRISM__CL_ARG(scratch),   PRISM__CL_ARG(slot_offset)};
    /* Unchecked, the kernel has no scratch and slot arguments. */
    const unsigned nargs = PRISM__CL_NARGS(move_args) - (checked ? 0 : 2);
    st = prism__cl_launch(ctx, move, "move_elements", move_args, nargs, global,
                          wg);
    if (st != PRISM_OK)
      return st;
  }
  if (!checked)
    return PRISM_OK;

  const cl_uint count = (cl_uint)launches;
  const cl_ulong chunk = per_launch;
  const prism__cl_arg final_args[] = {
      PRISM__CL_ARG(scratch), PRISM__CL_ARG(slots_offset), PRISM__CL_ARG(count),
      PRISM__CL_ARG(chunk), PRISM__CL_ARG(result_offset)};
  st = PRISM__CL_LAUNCH(ctx, first_bad, "move_first_bad", final_args, 1, 1);
  if (st != PRISM_OK)
    return st;

  cl_ulong result;
  cl_int err =
      clEnqueueReadBuffer(cl->queue, scratch, CL_TRUE, (size_t)result_offset,
                          sizeof result, &result, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(move first bad)");
  *args->first_bad = result == ~(cl_ulong)0 ? SIZE_MAX : (size_t)result;
  return PRISM_OK;
}
