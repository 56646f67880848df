/* Graph loaders: placeholder until they land. */
#include "error.h"
