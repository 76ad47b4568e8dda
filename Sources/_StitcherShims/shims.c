#include "StitcherShims.h"

_Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL = 0;
stitcher_padded_counter stitcher_isolated_graphs;
