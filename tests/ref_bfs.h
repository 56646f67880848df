/* Serial reference: BFS and Graph500 validation. */
#ifndef PRISM_TESTS_REF_BFS_H
#define PRISM_TESTS_REF_BFS_H

#include "prism.h"

#endif
