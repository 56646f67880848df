/* SPDX-License-Identifier: MIT */
/*
 * Transpose (core/backend.h, prism__transpose_args) in kernels_cl/
 * transpose.cl, shaped as backend_cuda/transpose.cu: one launch of
 * transpose_tiles (a work-group per tile at a time, through local memory;
 * 1-, 2- and 4-byte elements packed into words where core allows) or, with
 * the CPU policy, of transpose_blocks (a work-item per range of blocks,
 * from global memory). Queued, nothing allocated or read back.
 */
#include "opencl_internal.h"

prism_status prism__cl_transpose(prism_context *ctx,
                                 const prism__transpose_args *a) {
  prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_transpose_policy *pol = &cl->policy.transpose;
  /* The packed path where core's rule and the policy allow it (buffers
   * start aligned far beyond a word: only the offsets count). */
  const int v = pol->blocked || !pol->packed_tile
                    ? 1
                    : prism__transpose_pack(a, a->in.offset, a->out.offset);
  const unsigned tile =
      v > 1 ? pol->packed_tile : prism__cl_transpose_tile(pol, a->element_size);
  const unsigned side = v > 1 ? pol->packed_side : pol->side;
  const size_t wg = pol->wg;
  const prism__transpose_plan p = prism__transpose_plan_of(
      a, v, prism__log2_floor(tile), prism__log2_floor(side));
  const cl_ulong rows = p.rows, cols = p.cols, tiles = p.tiles;
  const cl_ulong tiles_r = p.tiles_r, tiles_c = p.tiles_c;
  const cl_int ltr = p.log_tr, ltc = p.log_tc;

  char options[256];
  if (pol->blocked)
    prism__cl_options(options, sizeof options, PRISM_U32, PRISM_SUM,
                      "-DPRISM_WG=%zu -DPRISM_ELEM_BYTES=%zu "
                      "-DPRISM_TRANSPOSE_BLOCKED=1",
                      wg, a->element_size);
  else
    prism__cl_options(
        options, sizeof options, PRISM_U32, PRISM_SUM,
        "-DPRISM_WG=%zu -DPRISM_ELEM_BYTES=%zu -DPRISM_TRANSPOSE_BLOCKED=0 "
        "-DPRISM_PACK=%d -DPRISM_TILE=%u -DPRISM_TRANSPOSE_LOCAL=%zu",
        wg, a->element_size, v, tile,
        v > 1
            ? (size_t)PRISM__CL_TRANSPOSE_PACKED_LOCAL(
                  (size_t)tile, (size_t)v, (size_t)v * a->element_size)
            : (size_t)PRISM__CL_TRANSPOSE_LOCAL((size_t)tile, a->element_size));
  const char *name = pol->blocked ? "transpose_blocks" : "transpose_tiles";
  cl_kernel kernel;
  prism_status st =
      prism__cl_kernel(ctx, "transpose.cl", options, name, &kernel);
  if (st != PRISM_OK)
    return st;

  const cl_ulong most = (cl_ulong)cl->facts.compute_units * pol->groups_per_cu;
  const cl_ulong groups = tiles < most ? tiles : (most > 0 ? most : 1);
  if (pol->blocked) {
    const cl_ulong per_item = (tiles + groups - 1) / groups;
    const cl_ulong items = (tiles + per_item - 1) / per_item;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->in),   PRISM__CL_MEM(a->out),  PRISM__CL_ARG(rows),
        PRISM__CL_ARG(cols),    PRISM__CL_ARG(ltr),     PRISM__CL_ARG(ltc),
        PRISM__CL_ARG(tiles_r), PRISM__CL_ARG(tiles_c), PRISM__CL_ARG(tiles),
        PRISM__CL_ARG(per_item)};
    return PRISM__CL_LAUNCH(ctx, kernel, name, args, (size_t)items * wg, wg);
  }
  const prism__cl_arg args[] = {
      PRISM__CL_MEM(a->in),   PRISM__CL_MEM(a->out),  PRISM__CL_ARG(rows),
      PRISM__CL_ARG(cols),    PRISM__CL_ARG(ltr),     PRISM__CL_ARG(ltc),
      PRISM__CL_ARG(tiles_r), PRISM__CL_ARG(tiles_c), PRISM__CL_ARG(tiles)};
  return PRISM__CL_LAUNCH(ctx, kernel, name, args, (size_t)groups * wg, wg);
}
