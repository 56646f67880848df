/* SPDX-License-Identifier: MIT */
/*
 * Top-k (core/backend.h, prism__topk_args) in kernels_cl/topk.cl (which
 * holds the design), as backend_cuda/topk.cu: rows of up to the policy's
 * largest row tile go to topk_rows, a work-group a row (the least tile that
 * holds the row), in launches of at most policy.topk.launch work-items
 * with a ulong base; longer rows, one after another, to the device-wide
 * radix select: topk_init, the pass / choose pairs (topk_pass over a
 * persistent grid, topk_choose one work-group), when sorted topk_compose
 * and the internal radix sort (sort.c) of the chosen list, and
 * topk_finish. Everything is queued; nothing is read back.
 *
 * The scratch of the long rows, one prism__scratch call, regions aligned
 * (as backend_cuda/topk.cu lays it out):
 *   the sort's     what prism__cl_sort takes for the chosen list (sorted
 *                  only): its own prism__scratch call then finds the pool
 *                  large enough and writes only below our regions
 *   state          topk.cl's topk_state
 *   bins           2048 of 8 bytes (4 used without 64-bit atomics)
 *   candidates     two buffers of cap keys, then cap columns
 *   chosen list    k keys, then k columns
 *   composites     k ulongs (sorted, 4-byte keys, cols <= 2^32)
 */
#include "opencl_internal.h"

#include <stdint.h>
#include <string.h>

/* topk.cl's topk_state (72 bytes) and bins (2^DIGIT_BITS of at most 8
 * bytes), and its values_mode. */
#define STATE_BYTES 128
#define DIGIT_BITS 11
#define BINS_BYTES ((size_t)8 << DIGIT_BITS)
#define VALUES_NONE 0u
#define VALUES_IN 1u
#define VALUES_COLUMNS 2u

static size_t min_size(size_t a, size_t b) {
  return a < b ? a : b;
}

/* One call's common arguments: flip (as wide as a key), what to write. */
typedef struct topk_call {
  prism_context *ctx;
  const prism__topk_args *a;
  const prism__cl_topk_policy *pol;
  size_t key_bytes;
  cl_uint values_mode, want_keys;
  cl_uint flip4;
  cl_ulong flip8;
  prism__cl_arg flip;
} topk_call;

static const char *image_name(prism_type t) {
  static const char *const image[] = {"I32", "U32", "F32", "I64", "U64", "F64"};
  return image[t];
}

/* The row tile's items for cols keys: the least tile holding them, or 0
 * when the row is longer than every tile. */
static unsigned row_items(const prism__cl_topk_policy *pol, size_t key_bytes,
                          size_t cols) {
  const unsigned *items =
      key_bytes == 4 ? pol->rows_items_4 : pol->rows_items_8;
  for (int t = 0; t < PRISM__CL_TOPK_TILES; t++)
    if (items[t] && (size_t)pol->rows_wg * items[t] >= cols)
      return items[t];
  return 0;
}

/* ---- topk_rows ---------------------------------------------------------- */

static prism_status topk_rows(topk_call *c, unsigned items) {
  const prism__topk_args *a = c->a;
  const size_t wg = c->pol->rows_wg;
  char options[320];
  prism__cl_options(
      options, sizeof options, c->key_bytes == 4 ? PRISM_U32 : PRISM_U64,
      PRISM_SUM,
      "-DPRISM_KEY_IMAGE=PRISM_KEY_IMAGE_%s "
      "-DPRISM_VALUE_BYTES=%zu -DPRISM_WG=%zu -DPRISM_ITEMS=%u "
      "-DPRISM_TOPK_ROWS_LOCAL=%zu",
      image_name(a->key_type), a->value_size, wg, items,
      (size_t)PRISM__CL_TOPK_ROWS_LOCAL(wg, (size_t)items, c->key_bytes));
  cl_kernel k;
  prism_status st =
      prism__cl_kernel(c->ctx, "topk.cl", options, "topk_rows", &k);
  if (st != PRISM_OK)
    return st;
  cl_uint m = 1;
  while (m < a->k)
    m *= 2;
  const cl_ulong cols = a->cols, kk = a->k;
  const cl_uint sorted = (cl_uint)a->sorted;
  const size_t per_launch = c->pol->launch / wg > 0 ? c->pol->launch / wg : 1;
  for (size_t r = 0; r < a->rows && st == PRISM_OK; r += per_launch) {
    const size_t count = min_size(a->rows - r, per_launch);
    const cl_ulong base = r;
    const prism__cl_arg args[] = {
        PRISM__CL_MEM(a->keys_in),     PRISM__CL_MEM(a->values_in),
        PRISM__CL_MEM(a->keys_out),    PRISM__CL_MEM(a->values_out),
        PRISM__CL_ARG(c->values_mode), PRISM__CL_ARG(c->want_keys),
        PRISM__CL_ARG(cols),           PRISM__CL_ARG(kk),
        PRISM__CL_ARG(sorted),         PRISM__CL_ARG(m),
        PRISM__CL_ARG(base),           c->flip};
    st = PRISM__CL_LAUNCH(c->ctx, k, "topk_rows", args, count * wg, wg);
  }
  return st;
}

/* ---- long rows: init, pass / choose pairs, the sort, finish ------------ */

/* The long rows' plan: shapes, layout (byte offsets in scratch), sorts. */
typedef struct long_plan {
  int wide, composite;
  size_t col_bytes;  /* a column's: 4, or 8 when wide */
  unsigned col_bits; /* CB */
  size_t cap, groups, pairs;
  size_t state_at, bins_at, cand_at, cand_bytes, cand_cols_off;
  size_t chosen_at, chosen_cols_off, composite_at, bytes;
  unsigned sorts;
  prism__sort_args sort[2]; /* their memory set once the scratch is */
} long_plan;

/* Whether the device has 64-bit global atomics (cl_khr_int64_base_atomics):
 * without them topk.cl counts in 32 bits. */
static int has_int64_atomics(prism__cl *cl) {
  char ext[16384];
  size_t size = 0;
  if (clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) !=
          CL_SUCCESS ||
      size == 0 || size > sizeof ext ||
      clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, size, ext, NULL) !=
          CL_SUCCESS)
    return 0;
  static const char name[] = "cl_khr_int64_base_atomics";
  const size_t n = sizeof name - 1;
  for (const char *p = strstr(ext, name); p; p = strstr(p + 1, name))
    if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return 1;
  return 0;
}

/* The sorts of the chosen list (sorted only) over scratch, in place: the
 * composites; or by column (the keys along), then stably by key (the
 * columns along). */
static void plan_sorts(const topk_call *c, long_plan *p, cl_mem scratch) {
  const prism__topk_args *a = c->a;
  const prism__mem keys = prism__cl_mem_at(scratch, p->chosen_at);
  const prism__mem cols =
      prism__cl_mem_at(scratch, p->chosen_at + p->chosen_cols_off);
  memset(p->sort, 0, sizeof p->sort);
  p->sorts = 0;
  if (!a->sorted)
    return;
  prism__sort_args *s = &p->sort[p->sorts++];
  s->n = a->k;
  s->begin_bit = 0;
  if (p->composite) {
    s->key_type = PRISM_U64;
    s->keys_in = s->keys_out = prism__cl_mem_at(scratch, p->composite_at);
    s->end_bit = 64;
    return;
  }
  s->key_type = p->wide ? PRISM_U64 : PRISM_U32;
  s->keys_in = s->keys_out = cols;
  s->values_in = s->values_out = keys;
  s->value_size = c->key_bytes;
  s->end_bit = p->col_bits ? p->col_bits : 1;
  s = &p->sort[p->sorts++];
  s->n = a->k;
  s->key_type = a->key_type;
  s->keys_in = s->keys_out = keys;
  s->values_in = s->values_out = cols;
  s->value_size = p->col_bytes;
  s->descending = a->descending;
  s->begin_bit = 0;
  s->end_bit = (unsigned)(c->key_bytes * 8);
}

static prism_status plan_long(topk_call *c, long_plan *p, cl_mem *scratch) {
  const prism__topk_args *a = c->a;
  prism__cl *cl = prism__cl_of(c->ctx);
  const prism__cl_topk_policy *pol = c->pol;
  memset(p, 0, sizeof *p);
  p->wide = a->cols > (size_t)UINT32_MAX + 1;
  p->col_bytes = p->wide ? 8 : 4;
  p->composite = a->sorted && c->key_bytes == 4 && !p->wide;
  while (p->col_bits < 64 && (a->cols - 1) >> p->col_bits)
    p->col_bits++;
  const size_t key_bits = c->key_bytes * 8;
  p->pairs = (key_bits + DIGIT_BITS - 1) / DIGIT_BITS +
             (p->col_bits + DIGIT_BITS - 1) / DIGIT_BITS + 1;
  p->cap = a->cols / pol->cand_div;
  if (p->cap < pol->cand_min)
    p->cap = pol->cand_min;
  p->cap = min_size(p->cap, a->cols);

  /* Pass groups: up to the policy's per CU, none worth less than
   * pass_group_min elements, and enough that none counts 2^31 in its
   * 32-bit local bins. */
  const size_t tile = (size_t)pol->pass_wg * pol->pass_items;
  size_t groups = (size_t)pol->pass_groups_per_cu * cl->facts.compute_units;
  groups = min_size(groups,
                    (a->cols + pol->pass_group_min - 1) / pol->pass_group_min);
  const size_t least = a->cols / (((size_t)1 << 31) - tile) + 1;
  p->groups = groups > least ? groups : least;

  /* Our regions above the sorts' scratch (its size does not depend on
   * where the list lies: computed before the offsets are). */
  size_t sort_bytes = 0;
  plan_sorts(c, p, NULL);
  for (unsigned i = 0; i < p->sorts; i++) {
    const size_t b = prism__cl_sort_scratch_bytes(c->ctx, &p->sort[i]);
    sort_bytes = b > sort_bytes ? b : sort_bytes;
  }
  p->state_at = prism__cl_align(sort_bytes);
  p->bins_at = p->state_at + prism__cl_align(STATE_BYTES);
  p->cand_at = p->bins_at + prism__cl_align(BINS_BYTES);
  p->cand_cols_off = prism__cl_align(p->cap * c->key_bytes);
  p->cand_bytes = p->cand_cols_off + prism__cl_align(p->cap * p->col_bytes);
  p->chosen_at = p->cand_at + 2 * p->cand_bytes;
  p->chosen_cols_off = prism__cl_align(a->k * c->key_bytes);
  p->composite_at =
      p->chosen_at + p->chosen_cols_off + prism__cl_align(a->k * p->col_bytes);
  p->bytes = p->composite_at + (p->composite ? a->k * 8 : 0);
  void *native;
  prism_status st = prism__scratch(c->ctx, p->bytes, &native);
  if (st != PRISM_OK)
    return st;
  *scratch = (cl_mem)native;
  plan_sorts(c, p, *scratch);
  return PRISM_OK;
}

/* A kernel of a work-item per rank over k ranks, in launches of at most
 * policy.topk.launch work-items; *base (which args points at) = the
 * launch's first rank. */
static prism_status launch_ranks(topk_call *c, cl_kernel k, const char *name,
                                 const prism__cl_arg *args, unsigned nargs,
                                 cl_ulong *base) {
  const size_t wg = c->pol->finish_wg;
  const size_t groups = (c->a->k + wg - 1) / wg;
  const size_t per_launch = c->pol->launch / wg > 0 ? c->pol->launch / wg : 1;
  prism_status st = PRISM_OK;
  for (size_t g = 0; g < groups && st == PRISM_OK; g += per_launch) {
    const size_t count = min_size(groups - g, per_launch);
    *base = (cl_ulong)g * wg;
    st = prism__cl_launch(c->ctx, k, name, args, nargs, count * wg, wg);
  }
  return st;
}

/* One long row: init, the pass / choose pairs, the sorts, finish. */
static prism_status long_row(topk_call *c, const long_plan *p, cl_mem scratch,
                             const cl_kernel *kernels, size_t row) {
  const prism__topk_args *a = c->a;
  const prism__cl_topk_policy *pol = c->pol;
  const cl_ulong row_at = (cl_ulong)row * a->cols,
                 out_at = (cl_ulong)row * a->k;
  const cl_ulong cols = a->cols, k = a->k, cap = p->cap;
  const cl_ulong state_at = p->state_at, bins_at = p->bins_at,
                 cand_at = p->cand_at, cand_bytes = p->cand_bytes,
                 cand_cols_off = p->cand_cols_off, chosen_at = p->chosen_at,
                 chosen_cols_off = p->chosen_cols_off,
                 chosen_cols_at = p->chosen_at + p->chosen_cols_off,
                 composite_at = p->composite_at;
  const cl_uint img_bits = (cl_uint)(c->key_bytes * 8), col_bits = p->col_bits,
                composite = (cl_uint)p->composite;
  const size_t wg = pol->pass_wg;

  const prism__cl_arg init_args[] = {
      PRISM__CL_ARG(scratch), PRISM__CL_ARG(state_at), PRISM__CL_ARG(bins_at),
      PRISM__CL_ARG(k),       PRISM__CL_ARG(img_bits), PRISM__CL_ARG(col_bits)};
  prism_status st =
      PRISM__CL_LAUNCH(c->ctx, kernels[0], "topk_init", init_args, wg, wg);
  const prism__cl_arg pass_args[] = {PRISM__CL_MEM(a->keys_in),
                                     PRISM__CL_ARG(row_at),
                                     PRISM__CL_ARG(cols),
                                     c->flip,
                                     PRISM__CL_ARG(scratch),
                                     PRISM__CL_ARG(state_at),
                                     PRISM__CL_ARG(bins_at),
                                     PRISM__CL_ARG(cand_at),
                                     PRISM__CL_ARG(cand_bytes),
                                     PRISM__CL_ARG(cand_cols_off),
                                     PRISM__CL_ARG(cap),
                                     PRISM__CL_ARG(chosen_at),
                                     PRISM__CL_ARG(chosen_cols_off),
                                     PRISM__CL_ARG(k)};
  const prism__cl_arg choose_args[] = {
      PRISM__CL_ARG(scratch), PRISM__CL_ARG(state_at), PRISM__CL_ARG(bins_at),
      PRISM__CL_ARG(cap)};
  for (size_t i = 0; i < p->pairs && st == PRISM_OK; i++) {
    st = PRISM__CL_LAUNCH(c->ctx, kernels[1], "topk_pass", pass_args,
                          p->groups * wg, wg);
    if (st == PRISM_OK)
      st = PRISM__CL_LAUNCH(c->ctx, kernels[2], "topk_choose", choose_args, wg,
                            wg);
  }

  cl_ulong base = 0;
  if (st == PRISM_OK && p->composite) {
    const prism__cl_arg compose_args[] = {PRISM__CL_ARG(scratch),
                                          PRISM__CL_ARG(chosen_at),
                                          PRISM__CL_ARG(chosen_cols_off),
                                          c->flip,
                                          PRISM__CL_ARG(k),
                                          PRISM__CL_ARG(composite_at),
                                          PRISM__CL_ARG(base)};
    st = launch_ranks(c, kernels[3], "topk_compose", compose_args,
                      PRISM__CL_NARGS(compose_args), &base);
  }
  for (unsigned i = 0; i < p->sorts && st == PRISM_OK; i++)
    st = prism__cl_sort(c->ctx, &p->sort[i]);
  if (st == PRISM_OK && p->sorts) {
    /* The sorts' scratch fits below our regions: the pool neither grew
     * nor moved. */
    void *native;
    if ((st = prism__scratch(c->ctx, p->bytes, &native)) == PRISM_OK &&
        (cl_mem)native != scratch)
      st = prism__fail(c->ctx, PRISM_INTERNAL,
                       "prism_topk: the sort moved the scratch pool");
  }
  if (st != PRISM_OK)
    return st;
  const prism__cl_arg finish_args[] = {PRISM__CL_MEM(a->keys_in),
                                       PRISM__CL_MEM(a->values_in),
                                       PRISM__CL_MEM(a->keys_out),
                                       PRISM__CL_MEM(a->values_out),
                                       PRISM__CL_ARG(c->values_mode),
                                       PRISM__CL_ARG(c->want_keys),
                                       PRISM__CL_ARG(row_at),
                                       PRISM__CL_ARG(out_at),
                                       PRISM__CL_ARG(k),
                                       PRISM__CL_ARG(scratch),
                                       PRISM__CL_ARG(chosen_cols_at),
                                       PRISM__CL_ARG(composite),
                                       PRISM__CL_ARG(composite_at),
                                       PRISM__CL_ARG(base)};
  return launch_ranks(c, kernels[4], "topk_finish", finish_args,
                      PRISM__CL_NARGS(finish_args), &base);
}

static prism_status topk_long(topk_call *c) {
  const prism__topk_args *a = c->a;
  prism__cl *cl = prism__cl_of(c->ctx);
  const prism__cl_topk_policy *pol = c->pol;
  if (a->cols > UINT32_MAX && !has_int64_atomics(cl))
    return prism__fail(c->ctx, PRISM_UNSUPPORTED,
                       "prism_topk: cols = %zu needs 64-bit counts, and %s "
                       "has no cl_khr_int64_base_atomics (cols up to %u "
                       "there)",
                       a->cols, cl->device_name, (unsigned)UINT32_MAX);
  long_plan p;
  cl_mem scratch;
  prism_status st = plan_long(c, &p, &scratch);
  if (st != PRISM_OK)
    return st;

  char options[384];
  prism__cl_options(
      options, sizeof options, c->key_bytes == 4 ? PRISM_U32 : PRISM_U64,
      PRISM_SUM,
      "-DPRISM_KEY_IMAGE=PRISM_KEY_IMAGE_%s -DPRISM_VALUE_BYTES=%zu "
      "-DPRISM_WG=%u -DPRISM_ITEMS=%u -DPRISM_TOPK_WIDE=%d "
      "-DPRISM_TOPK_CHUNKED=%d -DPRISM_FINISH_WG=%u",
      image_name(a->key_type), a->value_size, pol->pass_wg, pol->pass_items,
      p.wide, pol->chunked, pol->finish_wg);
  static const char *const names[] = {"topk_init", "topk_pass", "topk_choose",
                                      "topk_compose", "topk_finish"};
  cl_kernel kernels[5];
  for (int i = 0; i < 5; i++)
    if ((st = prism__cl_kernel(c->ctx, "topk.cl", options, names[i],
                               &kernels[i])) != PRISM_OK)
      return st;
  for (size_t row = 0; row < a->rows && st == PRISM_OK; row++)
    st = long_row(c, &p, scratch, kernels, row);
  return st;
}

prism_status prism__cl_topk(prism_context *ctx, const prism__topk_args *a) {
  topk_call c;
  memset(&c, 0, sizeof c);
  c.ctx = ctx;
  c.a = a;
  c.pol = &prism__cl_of(ctx)->policy.topk;
  c.key_bytes = prism_type_size(a->key_type);
  c.want_keys = a->keys_out.native != NULL;
  c.values_mode = !a->values_out.native ? VALUES_NONE
                  : a->values_in.native ? VALUES_IN
                                        : VALUES_COLUMNS;
  c.flip4 = a->descending ? UINT32_MAX : 0;
  c.flip8 = a->descending ? UINT64_MAX : 0;
  c.flip.size = c.key_bytes;
  c.flip.value =
      c.key_bytes == 4 ? (const void *)&c.flip4 : (const void *)&c.flip8;
  const unsigned items = row_items(c.pol, c.key_bytes, a->cols);
  return items ? topk_rows(&c, items) : topk_long(&c);
}
