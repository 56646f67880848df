/* Graph generators: placeholder until they land. */
#include "error.h"
