/* segmented: placeholder until the kernels land. */
#include "cuda_internal.h"

extern "C" prism_status
prism__cuda_segmented(prism_context *ctx, const prism__segmented_args *args) {
  (void)args;
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "CUDA backend: segmented not built");
}
