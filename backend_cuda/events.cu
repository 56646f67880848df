/* SPDX-License-Identifier: MIT */
/*
 * Events (prism_event_*, prism_cuda_event): a cudaEvent_t without timing,
 * recorded on the context's stream. Waiting on one from another context's
 * stream is cudaStreamWaitEvent, which also orders work across devices, so
 * no event of this backend is refused.
 */
#include "cuda_internal.h"

extern "C" prism_status prism__cuda_event_record(prism_context *ctx,
                                                 void **native) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  cudaEvent_t ev = NULL;
  PRISM_CUDA_TRY(ctx, cudaEventCreateWithFlags, &ev, cudaEventDisableTiming);
  cudaError_t err = cudaEventRecord(ev, c->stream);
  if (err != cudaSuccess) {
    (void)cudaEventDestroy(ev);
    return prism__cuda_fail(ctx, err, "cudaEventRecord");
  }
  *native = ev;
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_event_wait(prism_context *ctx,
                                               void *native) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  PRISM_CUDA_TRY(ctx, cudaEventSynchronize, (cudaEvent_t)native);
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_event_query(prism_context *ctx,
                                                void *native, int *done) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  const cudaError_t err = cudaEventQuery((cudaEvent_t)native);
  if (err == cudaErrorNotReady) {
    // Not an error, but the runtime keeps it as the thread's last error,
    // which a later launch check would report.
    (void)cudaGetLastError();
    *done = 0;
    return PRISM_OK;
  }
  if (err != cudaSuccess)
    return prism__cuda_fail(ctx, err, "cudaEventQuery");
  *done = 1;
  return PRISM_OK;
}

extern "C" prism_status prism__cuda_queue_wait(prism_context *ctx,
                                               void *native) {
  prism__cuda_ctx *c = NULL;
  prism_status st = prism__cuda_enter(ctx, &c);
  if (st != PRISM_OK)
    return st;
  PRISM_CUDA_TRY(ctx, cudaStreamWaitEvent, c->stream, (cudaEvent_t)native, 0);
  return PRISM_OK;
}

extern "C" void prism__cuda_event_release(prism_context *ctx, void *native) {
  (void)ctx;
  if (!native)
    return;
  // Any device may be current, and the event's work need not be done: the
  // runtime releases it once it is.
  (void)cudaEventDestroy((cudaEvent_t)native);
  (void)cudaGetLastError();
}
