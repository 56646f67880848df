/* SPDX-License-Identifier: MIT */
/*
 * SpMV on core's merge-path partition (core/backend.h, prism__spmv_args),
 * in kernels_cl/spmv.cl (which holds the design), as backend_cuda/spmv.cu:
 * the tiles (spmv_tiles, a work-group staging each in local memory; or,
 * with the CPU policy, spmv_tiles_serial, a work-item walking each), then
 * the rows split between tiles: spmv_fix_long (a work-group per long
 * one), spmv_fix_short (the rest). Queued, nothing allocated or read back.
 */
#include "opencl_internal.h"

/* Merge items per tile of the policy for T of elem bytes. */
static size_t tile_items(const prism__cl_spmv_policy *p, size_t elem) {
  if (p->serial)
    return p->serial_tile;
  return (size_t)p->wg * (elem == 4 ? p->items_4 : p->items_8);
}

size_t prism__cl_spmv_tile_items(prism_context *ctx, prism_type type) {
  return tile_items(&prism__cl_of(ctx)->policy.spmv, prism_type_size(type));
}

/* The values alpha and beta as the kernels take them (T). */
typedef union spmv_scalar {
  cl_float f32;
  cl_double f64;
} spmv_scalar;

static prism__cl_arg scalar_arg(const spmv_scalar *v, prism_type type) {
  prism__cl_arg arg = {type == PRISM_F64 ? sizeof(cl_double) : sizeof(cl_float),
                       v, 0};
  return arg;
}

static spmv_scalar scalar_of(double v, prism_type type) {
  spmv_scalar s;
  if (type == PRISM_F64)
    s.f64 = v;
  else
    s.f32 = (cl_float)v;
  return s;
}

prism_status prism__cl_spmv(prism_context *ctx, const prism__spmv_args *a) {
  const prism__cl_spmv_policy *pol = &prism__cl_of(ctx)->policy.spmv;
  const size_t elem = prism_type_size(a->type);
  const size_t wg = pol->wg;
  const unsigned items = elem == 4 ? pol->items_4 : pol->items_8;
  char options[256];
  if (pol->serial)
    prism__cl_options(options, sizeof options, a->type, PRISM_SUM,
                      "-DPRISM_WG=%zu -DPRISM_SPMV_SERIAL=1", wg);
  else
    prism__cl_options(options, sizeof options, a->type, PRISM_SUM,
                      "-DPRISM_WG=%zu -DPRISM_SPMV_SERIAL=0 -DPRISM_ITEMS=%u "
                      "-DPRISM_SPMV_LOCAL=%zu",
                      wg, items, (size_t)PRISM__CL_SPMV_LOCAL(wg, items, elem));
  const char *tiles_name = pol->serial ? "spmv_tiles_serial" : "spmv_tiles";
  cl_kernel tiles, fix_long = NULL, fix_short = NULL;
  const size_t shorts = a->splits - a->long_splits;
  prism_status st =
      prism__cl_kernel(ctx, "spmv.cl", options, tiles_name, &tiles);
  if (st == PRISM_OK && a->long_splits > 0)
    st = prism__cl_kernel(ctx, "spmv.cl", options, "spmv_fix_long", &fix_long);
  if (st == PRISM_OK && shorts > 0)
    st =
        prism__cl_kernel(ctx, "spmv.cl", options, "spmv_fix_short", &fix_short);
  if (st != PRISM_OK)
    return st;

  const spmv_scalar alpha = scalar_of(a->alpha, a->type);
  const spmv_scalar beta = scalar_of(a->beta, a->type);
  /* A work-group per tile, or a work-item (a group of one) serial. */
  const prism__cl_arg tile_args[] = {
      PRISM__CL_MEM(a->row_offsets), PRISM__CL_MEM(a->col_indices),
      PRISM__CL_MEM(a->values),      PRISM__CL_MEM(a->x),
      PRISM__CL_MEM(a->y),           PRISM__CL_MEM(a->coords),
      PRISM__CL_MEM(a->partials),    scalar_arg(&alpha, a->type),
      scalar_arg(&beta, a->type)};
  st = PRISM__CL_LAUNCH(ctx, tiles, tiles_name, tile_args, a->tiles * wg, wg);
  if (st != PRISM_OK)
    return st;
  if (a->long_splits > 0) {
    const prism__cl_arg long_args[] = {
        PRISM__CL_MEM(a->split_rows), PRISM__CL_MEM(a->partials),
        PRISM__CL_MEM(a->y), scalar_arg(&alpha, a->type),
        scalar_arg(&beta, a->type)};
    st = PRISM__CL_LAUNCH(ctx, fix_long, "spmv_fix_long", long_args,
                          a->long_splits * wg, wg);
    if (st != PRISM_OK)
      return st;
  }
  if (shorts > 0) {
    const cl_ulong begin = a->long_splits, end = a->splits;
    const cl_ulong per_item = pol->fix_splits ? pol->fix_splits : 1;
    const size_t work_items = (shorts + (size_t)per_item - 1) / per_item;
    const prism__cl_arg short_args[] = {
        PRISM__CL_MEM(a->split_rows), PRISM__CL_ARG(begin),
        PRISM__CL_ARG(end),           PRISM__CL_ARG(per_item),
        PRISM__CL_MEM(a->partials),   PRISM__CL_MEM(a->y),
        scalar_arg(&alpha, a->type),  scalar_arg(&beta, a->type)};
    st = PRISM__CL_LAUNCH(ctx, fix_short, "spmv_fix_short", short_args,
                          (work_items + wg - 1) / wg * wg, wg);
  }
  return st;
}
