// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_error.h"

G_DEFINE_QUARK(memcgsim_scenario_error, mcs_error)
