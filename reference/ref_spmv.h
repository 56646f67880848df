/* SPDX-License-Identifier: MIT */
/*
 * SpMV, y = alpha * A * x + beta * y over a host CSR matrix: the reference
 * (each row's sum in long double, with its tolerance), the serial C loop
 * prism-bench times (sums in the value type), and the check of a result.
 */
#ifndef PRISM_REFERENCE_SPMV_H
#define PRISM_REFERENCE_SPMV_H

#include "prism.h"

#include <stddef.h>

/**
 * The reference: ref[i] = alpha * sum_j a_ij x_j + beta * y[i] in long
 * double, with alpha and beta first rounded to the value type as prism
 * does, and beta * y[i] left out when beta rounds to 0 (y is then not
 * read, and may be NULL). tol[i] (may be NULL) gets prism.h's bound:
 * (k + 2) * eps * (|alpha| * sum_j |a_ij x_j| + |beta * y[i]|) + (k + 2) *
 * the smallest normal value, k the row's entries, eps the value type's.
 * x and y are arrays of the matrix's value type.
 */
void ref_spmv(const prism_csr_matrix *m, double alpha, const void *x,
              double beta, const void *y, double *ref, double *tol);

/** The serial C loop in the value type (what prism-bench times):
 * y = alpha * A * x + beta * y, y not read when beta rounds to 0. */
void ref_serial_spmv(const prism_csr_matrix *m, double alpha, const void *x,
                     double beta, void *y);

/**
 * Whether got (rows elements of type) matches the reference: NaN where
 * ref is NaN, the same infinity where ref is infinite, else |got - ref| <=
 * tol. Returns the first row that does not, or (size_t)-1 when all do.
 */
size_t ref_check_spmv(prism_type type, size_t rows, const void *got,
                      const double *ref, const double *tol);

#endif /* PRISM_REFERENCE_SPMV_H */
