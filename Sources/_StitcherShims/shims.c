#include "StitcherShims.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL = 0;
// Cycle detection follows its default, `RuntimeCycleDetectionAvailability.debugOnly`: on in
// builds with the `DEBUG` condition (SwiftPM and Xcode define it for C as for Swift), until
// the configuration is set. `ConfigurationTests` checks that the two agree.
#if defined(DEBUG)
stitcher_lookup_counters stitcher_counters = { .detects_cycles = 1 };
#else
stitcher_lookup_counters stitcher_counters = { .detects_cycles = 0 };
#endif
stitcher_path_counter stitcher_paths;
_Atomic(void *) stitcher_existential_templates[STITCHER_TEMPLATE_SLOTS];

void stitcher_hazard_setup(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    // The expedited private barrier interrupts only the CPUs running this process's threads
    // (a thread not running passes a barrier when it is scheduled again); it must be
    // registered once. A kernel or sandbox without it leaves announcements as fences.
    long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    atomic_store_explicit(&stitcher_counters.asymmetric_fences, 1, memory_order_seq_cst);
#endif
}

void stitcher_hazard_barrier(void) {
    atomic_thread_fence(memory_order_seq_cst);
#if defined(__linux__) && defined(__NR_membarrier)
    if (atomic_load_explicit(&stitcher_counters.asymmetric_fences, memory_order_relaxed)) {
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
            // Registered barriers do not fail; should one, no announcement can be trusted.
            __builtin_trap();
        }
    }
#endif
    atomic_thread_fence(memory_order_seq_cst);
}
