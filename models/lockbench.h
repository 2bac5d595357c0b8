/* lockbench: the queueing-validation workload; see lockbench.c. */
#pragma once
#include "workload.h"
