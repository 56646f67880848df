/* segmented: placeholder until the kernels land. */
#include "opencl_internal.h"

prism_status prism__cl_segmented(prism_context *ctx,
                                 const prism__segmented_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "OpenCL backend: segmented not built");
}
