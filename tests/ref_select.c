#include "ref_select.h"
