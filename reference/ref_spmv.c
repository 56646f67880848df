/* SPDX-License-Identifier: MIT */
#include "ref_spmv.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

/* Element i of an array of the value type, widened. */
static long double at(prism_type type, const void *a, size_t i) {
  return type == PRISM_F64 ? (long double)((const double *)a)[i]
                           : (long double)((const float *)a)[i];
}

/* A double rounded to the value type and widened back. */
static double rounded(prism_type type, double v) {
  return type == PRISM_F64 ? v : (double)(float)v;
}

void ref_spmv(const prism_csr_matrix *m, double alpha, const void *x,
              double beta, const void *y, double *ref, double *tol) {
  const prism_type type = m->value_type;
  const long double a = rounded(type, alpha), b = rounded(type, beta);
  const double eps = type == PRISM_F64 ? DBL_EPSILON : FLT_EPSILON;
  const double tiny = type == PRISM_F64 ? DBL_MIN : FLT_MIN;
  for (size_t i = 0; i < m->csr.num_vertices; i++) {
    long double s = 0, mag = 0;
    const uint64_t lo = m->csr.row_offsets[i], hi = m->csr.row_offsets[i + 1];
    for (uint64_t z = lo; z < hi; z++) {
      long double p =
          at(type, m->values, z) * at(type, x, m->csr.col_indices[z]);
      s += p;
      mag += fabsl(p);
    }
    long double v = a * s, yv = 0;
    if (b != 0) {
      yv = b * at(type, y, i);
      v += yv;
    }
    ref[i] = (double)v;
    if (tol) {
      const double k = (double)(hi - lo) + 2;
      tol[i] = k * eps * (double)(fabsl(a) * mag + fabsl(yv)) + k * tiny;
    }
  }
}

#define SERIAL_SPMV(T)                                                         \
  static void serial_##T(const prism_csr_matrix *m, T alpha, const T *x,       \
                         T beta, T *y) {                                       \
    const uint64_t *off = m->csr.row_offsets;                                  \
    const uint32_t *col = m->csr.col_indices;                                  \
    const T *val = m->values;                                                  \
    for (size_t i = 0; i < m->csr.num_vertices; i++) {                         \
      T s = 0;                                                                 \
      for (uint64_t z = off[i]; z < off[i + 1]; z++)                           \
        s += val[z] * x[col[z]];                                               \
      y[i] = beta != 0 ? alpha * s + beta * y[i] : alpha * s;                  \
    }                                                                          \
  }
SERIAL_SPMV(float)
SERIAL_SPMV(double)

void ref_serial_spmv(const prism_csr_matrix *m, double alpha, const void *x,
                     double beta, void *y) {
  if (m->value_type == PRISM_F64)
    serial_double(m, alpha, x, beta, y);
  else
    serial_float(m, (float)alpha, x, (float)beta, y);
}

size_t ref_check_spmv(prism_type type, size_t rows, const void *got,
                      const double *ref, const double *tol) {
  for (size_t i = 0; i < rows; i++) {
    const double g = (double)at(type, got, i);
    if (isnan(ref[i])   ? !isnan(g)
        : isinf(ref[i]) ? g != ref[i]
                        : !(fabs(g - ref[i]) <= tol[i]))
      return i;
  }
  return (size_t)-1;
}
