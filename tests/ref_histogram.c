#include "ref_histogram.h"
