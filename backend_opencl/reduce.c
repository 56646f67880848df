/* SPDX-License-Identifier: MIT */
/*
 * reduce: reduce_partials (a fixed number of work-groups, one partial
 * each) then reduce_final (one work-group) and one small blocking read.
 * Small n: one work-group, one launch. The group count depends only on n
 * and the device, so float sums are reproducible run to run. With a device
 * result (prism_reduce_to_buffer) the last launch writes the caller's
 * buffer and nothing is read back.
 */
#include "opencl_internal.h"

prism_status prism__cl_reduce(prism_context *ctx,
                              const prism__reduce_args *args) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_policy *pol = &cl->policy;
  const size_t elem = prism_type_size(args->type);
  const size_t n = args->n;
  /* Vector loads (LOAD_VEC) need the view's start aligned to a vector:
   * otherwise this call reads one element at a time. */
  const cl_uint vec =
      pol->reduce.vec_bytes > elem &&
              prism__cl_vec_fits(&args->in, 1, pol->reduce.vec_bytes)
          ? (cl_uint)(pol->reduce.vec_bytes / elem)
          : 1;
  const size_t wg = pol->reduce.wg;

  size_t groups =
      (n + pol->reduce.per_group_min - 1) / pol->reduce.per_group_min;
  size_t max_groups =
      (size_t)pol->reduce.groups_per_cu * cl->facts.compute_units;
  if (groups > max_groups)
    groups = max_groups;
  if (groups < 1)
    groups = 1;

  char options[256];
  prism__cl_options(options, sizeof options, args->type, args->op,
                    "-DPRISM_WG=%zu -DPRISM_VEC=%u -DPRISM_CHUNKED=%d", wg, vec,
                    pol->reduce.chunked);
  cl_kernel partials, final = NULL;
  prism_status st =
      prism__cl_kernel(ctx, "reduce.cl", options, "reduce_partials", &partials);
  if (st == PRISM_OK && groups > 1)
    st = prism__cl_kernel(ctx, "reduce.cl", options, "reduce_final", &final);
  if (st != PRISM_OK)
    return st;

  /* Scratch: the partials, then the result. */
  const cl_ulong partials_offset = 0;
  const size_t result_offset = prism__cl_align(groups * elem);
  void *native;
  st = prism__scratch(ctx, result_offset + elem, &native);
  if (st != PRISM_OK)
    return st;
  cl_mem scratch = (cl_mem)native;

  const size_t global = groups * wg;
  const cl_ulong n_arg = n;
  const cl_ulong nvec = n / vec;
  const cl_ulong chunk_vecs = (nvec + global - 1) / global;
  /* Where the result lands: the caller's buffer, or scratch. */
  const prism__mem result =
      args->out.native ? args->out : prism__cl_mem_at(scratch, result_offset);
  const prism__mem first =
      groups > 1 ? prism__cl_mem_at(scratch, (size_t)partials_offset) : result;
  const prism__cl_arg partials_args[] = {
      PRISM__CL_MEM(args->in), PRISM__CL_ARG(n_arg), PRISM__CL_ARG(chunk_vecs),
      PRISM__CL_MEM_ANY(first)};
  st = PRISM__CL_LAUNCH(ctx, partials, "reduce_partials", partials_args, global,
                        wg);
  if (st == PRISM_OK && groups > 1) {
    const cl_uint count = (cl_uint)groups;
    const prism__cl_arg final_args[] = {
        PRISM__CL_ARG(scratch), PRISM__CL_ARG(partials_offset),
        PRISM__CL_ARG(count), PRISM__CL_MEM_ANY(result)};
    st = PRISM__CL_LAUNCH(ctx, final, "reduce_final", final_args, wg, wg);
  }
  if (st != PRISM_OK || args->out.native)
    return st;

  cl_int err =
      clEnqueueReadBuffer(cl->queue, scratch, CL_TRUE, (size_t)result_offset,
                          elem, args->result, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return prism__cl_fail(ctx, err, "clEnqueueReadBuffer(reduce result)");
  return PRISM_OK;
}
