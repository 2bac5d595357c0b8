/* memhog: the anonymous-memory workload; see memhog.c. */
#pragma once
#include "workload.h"
#include <stdbool.h>
