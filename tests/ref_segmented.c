#include "ref_segmented.h"
