#include "StitcherShims.h"

_Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL = 0;
_Atomic(long) stitcher_isolated_graphs = 0;
