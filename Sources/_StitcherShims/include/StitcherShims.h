// The few things Stitcher's lookup path needs that Swift cannot express: a thread-local
// variable read with one instruction, and a process-wide counter that needs no lazy
// initialization. Internal to Stitcher.
#ifndef STITCHER_SHIMS_H
#define STITCHER_SHIMS_H

#include <stdatomic.h>

#if defined(__ELF__)
#define STITCHER_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define STITCHER_TLS_MODEL
#endif

/// The calling thread's `ThreadState` (unretained; the thread-specific key that destroys it
/// holds the reference), or NULL before the thread's first lookup.
extern _Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL;

/// How many isolated graphs are bound right now, alone on its cache line: every lookup reads
/// it, so a neighbour written by other code would make threads contend.
typedef struct {
    _Alignas(128) _Atomic(long) value;
    char padding[120];
} stitcher_padded_counter;

extern stitcher_padded_counter stitcher_isolated_graphs;

static inline void *_Nullable stitcher_current_thread_state(void) { return stitcher_thread_state; }

static inline void stitcher_set_current_thread_state(void *_Nullable state) { stitcher_thread_state = state; }

static inline long stitcher_isolated_graph_count(void) {
    return atomic_load_explicit(&stitcher_isolated_graphs.value, memory_order_relaxed);
}

static inline void stitcher_add_isolated_graphs(long delta) {
    atomic_fetch_add_explicit(&stitcher_isolated_graphs.value, delta, memory_order_relaxed);
}

#endif
