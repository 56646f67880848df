/* BFS: placeholder until the kernels land. */
#include "cuda_internal.h"

extern "C" prism_status prism__cuda_bfs(prism_context *ctx,
                                        const prism__bfs_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED, "CUDA backend: bfs not built");
}
