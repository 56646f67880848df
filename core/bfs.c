/* SPDX-License-Identifier: MIT */
/* BFS: validate the graph, source, buffers and options, then the backend. */
#include "check.h"
#include "error.h"
#include "graph.h"
#include "handles.h"

#include <math.h>
#include <string.h>

#define BFS_DEFAULT_ALPHA 15.0
#define BFS_DEFAULT_BETA 18.0

void prism_bfs_options_init(prism_bfs_options *options) {
  if (!options)
    return;
  options->alpha = BFS_DEFAULT_ALPHA;
  options->beta = BFS_DEFAULT_BETA;
}

static prism_status check_factor(prism_context *ctx, double x, const char *arg,
                                 const char *fn) {
  if (isnan(x) || x < 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: options->%s is %g; must be a number >= 0", fn, arg,
                       x);
  return PRISM_OK;
}

static prism_status check_bfs(prism_context *ctx, const prism_graph *graph,
                              size_t source, const prism_buffer *levels,
                              const prism_buffer *parents,
                              const prism_bfs_options *options,
                              const char *fn) {
  prism_status st;
  if (!graph)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: graph is NULL", fn);
  prism_context *owner = prism__handle_context(graph, PRISM__HANDLE_GRAPH);
  if (!owner)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: graph is not a live prism graph (destroyed, or "
                       "never created)",
                       fn);
  if (owner != ctx)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: graph belongs to another context", fn);
  if (source >= graph->n)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: source %zu is out of range [0, %zu)", fn, source,
                       graph->n);
  const size_t bytes = graph->n * sizeof(int32_t);
  if ((st = prism__check_view(ctx, levels, sizeof(int32_t), bytes, fn,
                              "levels")) != PRISM_OK)
    return st;
  if (parents && (st = prism__check_view(ctx, parents, sizeof(int32_t), bytes,
                                         fn, "parents")) != PRISM_OK)
    return st;
  if (parents &&
      (st = prism__check_apart(ctx, fn, levels, 0, bytes, "levels", parents, 0,
                               bytes, "parents")) != PRISM_OK)
    return st;
  if (options &&
      ((st = check_factor(ctx, options->alpha, "alpha", fn)) != PRISM_OK ||
       (st = check_factor(ctx, options->beta, "beta", fn)) != PRISM_OK))
    return st;
  return PRISM_OK;
}

static prism_status bfs(prism_context *ctx, const prism_graph *graph,
                        size_t source, prism_buffer *levels,
                        prism_buffer *parents, const prism_bfs_options *options,
                        prism_bfs_result *result) {
  static const char fn[] = "prism_bfs";
  prism_status st;
  if ((st = check_bfs(ctx, graph, source, levels, parents, options, fn)) !=
      PRISM_OK)
    return st;
  if (!ctx->backend->bfs)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  prism_bfs_options defaults;
  prism_bfs_options_init(&defaults);
  if (!options)
    options = &defaults;
  prism_bfs_result found;
  memset(&found, 0, sizeof found);
  /* An undirected graph is its own transpose. */
  const prism_buffer *in_offsets =
      graph->directed ? graph->in_offsets : graph->offsets;
  const prism_buffer *in_cols = graph->directed ? graph->in_cols : graph->cols;
  prism__bfs_args args = {graph->n,
                          graph->m,
                          prism__mem_of(graph->offsets),
                          prism__mem_of(graph->cols),
                          prism__mem_of(in_offsets),
                          prism__mem_of(in_cols),
                          source,
                          prism__mem_of(levels),
                          prism__mem_of(parents),
                          options->alpha,
                          options->beta,
                          &found};
  if ((st = ctx->backend->bfs(ctx, &args)) != PRISM_OK)
    return st;
  if (result)
    *result = found;
  return PRISM_OK;
}

prism_status prism_bfs(prism_context *ctx, const prism_graph *graph,
                       size_t source, prism_buffer *levels,
                       prism_buffer *parents, const prism_bfs_options *options,
                       prism_bfs_result *result) {
  if (result)
    memset(result, 0, sizeof *result);
  PRISM__ENTER(ctx, "prism_bfs");
  return prism__leave(
      ctx, bfs(ctx, graph, source, levels, parents, options, result));
}
