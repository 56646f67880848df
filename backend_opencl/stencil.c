/* SPDX-License-Identifier: MIT */
/*
 * One stencil application (core/backend.h, prism__stencil_args) in
 * kernels_cl/stencil.cl, dispatched as backend_cuda/stencil.cu: 1-D
 * stencil_1d; 2-D full boxes of radii box_min_r (3) .. box_max_r
 * stencil_2d_box (its radius built in, a program per radius), stars,
 * radius 0 and smaller boxes stencil_2d;
 * 3-D stencil_3d_ring for radii 1 .. ring_max_r, stencil_direct for the
 * rest; stencil_1d and stencil_2d with radii 1 to 3 built in (CUDA's
 * template radii), others at run time. With the CPU policy every shape
 * takes stencil_rows. One launch, queued; nothing allocated or read back.
 */
#include "opencl_internal.h"

_Static_assert(PRISM_BORDER_ZERO == 0 && PRISM_BORDER_CLAMP == 1 &&
                   PRISM_BORDER_PERIODIC == 2,
               "stencil.cl's border values");

/* The radius a tile kernel is built for: 1 to 3 at compile time, others
 * 0 (the radius argument). */
static unsigned built_radius(unsigned r) {
  return r >= 1 && r <= 3 ? r : 0;
}

/* Work-groups for tiles: as many, up to groups_per_cu per compute unit
 * (each then loops over tiles). */
static size_t groups_for(const prism__cl *cl, cl_ulong tiles) {
  const cl_ulong cap =
      (cl_ulong)cl->facts.compute_units * cl->policy.stencil.groups_per_cu;
  return (size_t)(tiles < cap ? tiles : (cap > 0 ? cap : 1));
}

static cl_ulong ceil_div(cl_ulong a, cl_ulong b) {
  return (a + b - 1) / b;
}

/* stencil_rows: runs of pol->run points along x, or whole rows, at least
 * that many points, to a work-item. */
static prism_status launch_rows(prism_context *ctx, const prism__cl *cl,
                                const prism__stencil_args *a) {
  const prism__cl_stencil_policy *pol = &cl->policy.stencil;
  const size_t wg = pol->wg;
  char options[256];
  prism__cl_options(options, sizeof options, a->type, PRISM_SUM,
                    "-DPRISM_WG=%zu -DPRISM_STENCIL_ROWS", wg);
  cl_kernel kernel;
  prism_status st =
      prism__cl_kernel(ctx, "stencil.cl", options, "stencil_rows", &kernel);
  if (st != PRISM_OK)
    return st;
  const cl_long nx = (cl_long)a->nx, ny = (cl_long)a->ny, nz = (cl_long)a->nz;
  const cl_int dims = (cl_int)a->dims, r = (cl_int)a->radius;
  const cl_int border = (cl_int)a->border;
  const cl_ulong run = pol->run > 0 ? pol->run : 1;
  const cl_ulong rows = (cl_ulong)a->ny * a->nz;
  const cl_ulong runs_per_row = ceil_div(a->nx, run);
  const cl_ulong rows_per_item =
      runs_per_row > 1 || a->nx >= run ? 1 : run / a->nx;
  const cl_ulong items =
      runs_per_row > 1 ? rows * runs_per_row : ceil_div(rows, rows_per_item);
  const prism__cl_arg args[] = {PRISM__CL_MEM(a->in),
                                PRISM__CL_MEM(a->out),
                                PRISM__CL_MEM(a->weights),
                                PRISM__CL_ARG(nx),
                                PRISM__CL_ARG(ny),
                                PRISM__CL_ARG(nz),
                                PRISM__CL_ARG(dims),
                                PRISM__CL_ARG(r),
                                PRISM__CL_ARG(border),
                                PRISM__CL_ARG(runs_per_row),
                                PRISM__CL_ARG(rows_per_item),
                                PRISM__CL_ARG(run)};
  return PRISM__CL_LAUNCH(ctx, kernel, "stencil_rows", args,
                          (size_t)ceil_div(items, wg) * wg, wg);
}

/* stencil_2d_box: full 2-D boxes, the radius built in (a program per
 * radius), a 32 x (rows_2d x box rows) tile per work-group. */
static prism_status launch_2d_box(prism_context *ctx, const prism__cl *cl,
                                  const prism__stencil_args *a) {
  const prism__cl_stencil_policy *pol = &cl->policy.stencil;
  const size_t t_bytes = prism_type_size(a->type);
  const size_t wg = (size_t)32 * pol->rows_2d;
  const unsigned q = pol->box_rows;
  char options[384];
  prism__cl_options(
      options, sizeof options, a->type, PRISM_SUM,
      "-DPRISM_WG=%zu -DPRISM_STENCIL_2D_BOX -DPRISM_R=%u -DPRISM_MAX_R=%d "
      "-DPRISM_ROWS=%u -DPRISM_ITEMS=%u -DPRISM_STENCIL_LOCAL=%zu",
      wg, a->radius, PRISM_STENCIL_MAX_RADIUS, pol->rows_2d, q,
      (size_t)PRISM__CL_STENCIL_BOX_LOCAL((size_t)pol->rows_2d, q, a->radius,
                                          t_bytes));
  cl_kernel kernel;
  prism_status st =
      prism__cl_kernel(ctx, "stencil.cl", options, "stencil_2d_box", &kernel);
  if (st != PRISM_OK)
    return st;
  const cl_long nx = (cl_long)a->nx, ny = (cl_long)a->ny;
  const cl_int border = (cl_int)a->border;
  const cl_ulong tiles_x = ceil_div(a->nx, 32);
  const cl_ulong tiles_y = ceil_div(a->ny, (cl_ulong)pol->rows_2d * q);
  const cl_ulong tiles = tiles_x * tiles_y;
  const prism__cl_arg args[] = {
      PRISM__CL_MEM(a->in),   PRISM__CL_MEM(a->out), PRISM__CL_MEM(a->weights),
      PRISM__CL_ARG(nx),      PRISM__CL_ARG(ny),     PRISM__CL_ARG(border),
      PRISM__CL_ARG(tiles_x), PRISM__CL_ARG(tiles)};
  return PRISM__CL_LAUNCH(ctx, kernel, "stencil_2d_box", args,
                          groups_for(cl, tiles) * wg, wg);
}

prism_status prism__cl_stencil(prism_context *ctx,
                               const prism__stencil_args *a) {
  const prism__cl *cl = prism__cl_of(ctx);
  const prism__cl_stencil_policy *pol = &cl->policy.stencil;
  if (pol->rows)
    return launch_rows(ctx, cl, a);
  const size_t t_bytes = prism_type_size(a->type);
  const cl_long nx = (cl_long)a->nx, ny = (cl_long)a->ny, nz = (cl_long)a->nz;
  const cl_int r = (cl_int)a->radius, border = (cl_int)a->border;
  const cl_int dims = (cl_int)a->dims;
  const int star = a->star ? 1 : 0;
  const unsigned R = built_radius(a->radius);
  const size_t rmax = R > 0 ? R : PRISM_STENCIL_MAX_RADIUS;
  char options[384];
  cl_kernel kernel;
  prism_status st;

  if (a->dims == 1) {
    const size_t wg = pol->wg;
    const cl_ulong tiles = ceil_div(a->nx, (cl_ulong)wg * pol->items_1d);
    prism__cl_options(
        options, sizeof options, a->type, PRISM_SUM,
        "-DPRISM_WG=%zu -DPRISM_STENCIL_1D -DPRISM_R=%u -DPRISM_MAX_R=%d "
        "-DPRISM_ITEMS=%u -DPRISM_STENCIL_LOCAL=%zu",
        wg, R, PRISM_STENCIL_MAX_RADIUS, pol->items_1d,
        (size_t)PRISM__CL_STENCIL_1D_LOCAL(wg, pol->items_1d, rmax, t_bytes));
    if ((st = prism__cl_kernel(ctx, "stencil.cl", options, "stencil_1d",
                               &kernel)) != PRISM_OK)
      return st;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->in), PRISM__CL_MEM(a->out), PRISM__CL_MEM(a->weights),
        PRISM__CL_ARG(nx),    PRISM__CL_ARG(r),      PRISM__CL_ARG(border),
        PRISM__CL_ARG(tiles)};
    return PRISM__CL_LAUNCH(ctx, kernel, "stencil_1d", args,
                            groups_for(cl, tiles) * wg, wg);
  }

  if (a->dims == 2 && !star && a->radius >= pol->box_min_r &&
      a->radius <= pol->box_max_r)
    return launch_2d_box(ctx, cl, a);

  if (a->dims == 2) {
    const size_t wg = (size_t)32 * pol->rows_2d;
    const unsigned cols = prism__cl_stencil_cols(pol, t_bytes);
    const cl_ulong tiles_x = ceil_div(a->nx, (cl_ulong)32 * cols);
    const cl_ulong tiles_y =
        ceil_div(a->ny, (cl_ulong)pol->rows_2d * pol->items_2d);
    const cl_ulong tiles = tiles_x * tiles_y * a->nz;
    prism__cl_options(
        options, sizeof options, a->type, PRISM_SUM,
        "-DPRISM_WG=%zu -DPRISM_STENCIL_2D -DPRISM_R=%u -DPRISM_MAX_R=%d "
        "-DPRISM_STAR=%d -DPRISM_ROWS=%u -DPRISM_ITEMS=%u -DPRISM_COLS=%u "
        "-DPRISM_STENCIL_LOCAL=%zu",
        wg, R, PRISM_STENCIL_MAX_RADIUS, star, pol->rows_2d, pol->items_2d,
        cols,
        (size_t)PRISM__CL_STENCIL_2D_LOCAL((size_t)pol->rows_2d, pol->items_2d,
                                           cols, rmax, t_bytes));
    if ((st = prism__cl_kernel(ctx, "stencil.cl", options, "stencil_2d",
                               &kernel)) != PRISM_OK)
      return st;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->in),      PRISM__CL_MEM(a->out),
        PRISM__CL_MEM(a->weights), PRISM__CL_ARG(nx),
        PRISM__CL_ARG(ny),         PRISM__CL_ARG(r),
        PRISM__CL_ARG(border),     PRISM__CL_ARG(tiles_x),
        PRISM__CL_ARG(tiles)};
    return PRISM__CL_LAUNCH(ctx, kernel, "stencil_2d", args,
                            groups_for(cl, tiles) * wg, wg);
  }

  if (a->radius >= 1 && a->radius <= pol->ring_max_r) {
    const size_t wg = (size_t)32 * pol->rows_3d;
    const unsigned items = prism__cl_stencil_ring_items(pol, a->radius, t_bytes,
                                                        cl->facts.local_mem);
    const cl_ulong tiles_x = ceil_div(a->nx, 32);
    const cl_ulong tiles_y = ceil_div(a->ny, (cl_ulong)pol->rows_3d * items);
    const cl_ulong tiles_z = ceil_div(a->nz, pol->chunk_3d);
    const cl_ulong tiles = tiles_x * tiles_y * tiles_z;
    prism__cl_options(
        options, sizeof options, a->type, PRISM_SUM,
        "-DPRISM_WG=%zu -DPRISM_STENCIL_3D_RING -DPRISM_R=%u -DPRISM_STAR=%d "
        "-DPRISM_ROWS=%u -DPRISM_ITEMS=%u -DPRISM_CHUNK=%u "
        "-DPRISM_STENCIL_LOCAL=%zu",
        wg, a->radius, star, pol->rows_3d, items, pol->chunk_3d,
        (size_t)PRISM__CL_STENCIL_3D_LOCAL((size_t)pol->rows_3d, items,
                                           a->radius, t_bytes));
    if ((st = prism__cl_kernel(ctx, "stencil.cl", options, "stencil_3d_ring",
                               &kernel)) != PRISM_OK)
      return st;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->in),      PRISM__CL_MEM(a->out),
        PRISM__CL_MEM(a->weights), PRISM__CL_ARG(nx),
        PRISM__CL_ARG(ny),         PRISM__CL_ARG(nz),
        PRISM__CL_ARG(border),     PRISM__CL_ARG(tiles_x),
        PRISM__CL_ARG(tiles_y),    PRISM__CL_ARG(tiles)};
    return PRISM__CL_LAUNCH(ctx, kernel, "stencil_3d_ring", args,
                            groups_for(cl, tiles) * wg, wg);
  }

  const size_t wg = pol->wg;
  const cl_ulong points = (cl_ulong)a->nx * a->ny * a->nz;
  prism__cl_options(options, sizeof options, a->type, PRISM_SUM,
                    "-DPRISM_WG=%zu -DPRISM_STENCIL_DIRECT", wg);
  if ((st = prism__cl_kernel(ctx, "stencil.cl", options, "stencil_direct",
                             &kernel)) != PRISM_OK)
    return st;
  const prism__cl_arg args[] = {
      PRISM__CL_MEM(a->in), PRISM__CL_MEM(a->out), PRISM__CL_MEM(a->weights),
      PRISM__CL_ARG(nx),    PRISM__CL_ARG(ny),     PRISM__CL_ARG(nz),
      PRISM__CL_ARG(dims),  PRISM__CL_ARG(r),      PRISM__CL_ARG(border),
      PRISM__CL_ARG(points)};
  return PRISM__CL_LAUNCH(ctx, kernel, "stencil_direct", args,
                          groups_for(cl, ceil_div(points, wg)) * wg, wg);
}
