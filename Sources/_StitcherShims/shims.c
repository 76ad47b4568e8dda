#include "StitcherShims.h"

_Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL = 0;
// Cycle detection is on by default (`RuntimeCycleDetectionAvailability.always`).
stitcher_lookup_counters stitcher_counters = { .detects_cycles = 1 };
