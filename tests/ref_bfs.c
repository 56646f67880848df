#include "ref_bfs.h"
