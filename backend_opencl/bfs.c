/* BFS: placeholder until the kernels land. */
#include "opencl_internal.h"

prism_status prism__cl_bfs(prism_context *ctx, const prism__bfs_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED, "OpenCL backend: bfs not built");
}
