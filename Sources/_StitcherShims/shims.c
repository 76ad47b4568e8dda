#include "StitcherShims.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <stdlib.h>

_Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL = 0;
_Thread_local stitcher_frame_counters stitcher_frames STITCHER_TLS_MODEL = {0, 0};
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
_Atomic(unsigned long) stitcher_unaware_types[STITCHER_UNAWARE_TYPE_SLOTS];
_Atomic(unsigned long) stitcher_existential_places[STITCHER_EXISTENTIAL_PLACE_SLOTS];

// Whether this process registered for the expedited private barrier: set once, before any
// hazard cell exists. Kept apart from `asymmetric_fences` (the readers' mode), so that the
// barrier still runs when tests switch readers to fences while others read.
static _Atomic(int) membarrier_registered;

void stitcher_hazard_setup(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (atomic_load_explicit(&membarrier_registered, memory_order_acquire)) return;
    // The expedited private barrier interrupts only the CPUs running this process's threads
    // (a thread not running passes a barrier when it is scheduled again); it must be
    // registered once. A kernel or sandbox without it leaves announcements as fences.
    long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    atomic_store_explicit(&membarrier_registered, 1, memory_order_release);
    if (!getenv("STITCHER_SYMMETRIC_FENCES")) {
        atomic_store_explicit(&stitcher_counters.asymmetric_fences, 1, memory_order_seq_cst);
    }
#endif
}

void stitcher_hazard_barrier(void) {
    atomic_thread_fence(memory_order_seq_cst);
#if defined(__linux__) && defined(__NR_membarrier)
    if (atomic_load_explicit(&membarrier_registered, memory_order_acquire)) {
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
            // Registered barriers do not fail; should one, no announcement can be trusted.
            __builtin_trap();
        }
    }
#endif
    atomic_thread_fence(memory_order_seq_cst);
}

// MARK: Hazard cells. The invariant, with the retiring side (HazardDomain.retire):
//
//   A reader may dereference p only between announcing p in its cell and clearing the cell,
//   and only if a load of `source` made after the announcement returned p.
//   A retiring thread unpublishes p (an atomic exchange) before its barrier, and frees p only
//   if no cell announces p when it reads the cells after the barrier.
//
// Either the reader's announcement precedes (in its thread) the point where the barrier
// runs on its CPU, and the retiring thread sees it; or it follows, and then so does the
// confirming load, which sees the unpublished word (the exchange preceded the barrier).
// With symmetric fences the reader's seq_cst fence between the store and the load gives
// the same two cases against the retiring thread's fences. docs/Reclamation.md has the
// argument for each architecture and the Promela model that checks it.

static inline void hazard_store(_Atomic(void *) *word, void *pointer) {
    if (atomic_load_explicit(&stitcher_counters.asymmetric_fences, memory_order_relaxed)) {
        // The barrier the retiring thread runs orders this store; the signal fence keeps the
        // compiler from moving the confirming load above it.
        atomic_store_explicit(word, pointer, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_store_explicit(word, pointer, memory_order_seq_cst);
        atomic_thread_fence(memory_order_seq_cst);
    }
}

void stitcher_hazard_announce(void *_Nullable *_Nonnull cell, void *_Nullable pointer) {
    hazard_store((_Atomic(void *) *)cell, pointer);
}

void stitcher_hazard_clear(void *_Nullable *_Nonnull cell) {
    atomic_store_explicit((_Atomic(void *) *)cell, (void *)0, memory_order_release);
}

// The runtime's retain, referenced weakly: where the symbol is missing the reference is NULL
// and the Swift path is used. Its behaviour is checked from Swift before it is turned on.
extern void *_Nullable swift_retain(void *_Nullable object) __attribute__((weak));

// The read itself: `take` makes the reference, or, when NULL, the runtime's retain does.
static inline void *_Nullable follow(
    void *_Nullable *_Nonnull cell, void *_Nullable *_Nonnull source, stitcher_hazard_take _Nullable take) {
    _Atomic(void *) *word = (_Atomic(void *) *)cell;
    _Atomic(void *) *published = (_Atomic(void *) *)source;
    void *pointer = atomic_load_explicit(published, memory_order_acquire);
    while (pointer) {
        hazard_store(word, pointer);
        void *confirmed = atomic_load_explicit(published, memory_order_acquire);
        if (confirmed == pointer) {
            void *taken = pointer;
            if (take) {
                taken = take(pointer);
            } else {
                swift_retain(pointer);
            }
            // Release: the take (its retain, its weak load) happens before the end.
            atomic_store_explicit(word, (void *)0, memory_order_release);
            return taken;
        }
        pointer = confirmed;
    }
    atomic_store_explicit(word, (void *)0, memory_order_release);
    return 0;
}

void *_Nullable stitcher_hazard_follow(
    void *_Nullable *_Nonnull cell, void *_Nullable *_Nonnull source, stitcher_hazard_take _Nonnull take) {
    return follow(cell, source, take);
}

void stitcher_hazard_use_symmetric_fences(void) {
    atomic_store_explicit(&stitcher_counters.asymmetric_fences, 0, memory_order_seq_cst);
    // Threads that announce with plain stores right now finish under this barrier's cover.
    atomic_thread_fence(memory_order_seq_cst);
}

_Bool stitcher_hazard_runtime_has_retain(void) { return swift_retain != 0; }

void stitcher_hazard_set_direct_retain(_Bool enabled) {
    atomic_store_explicit(&stitcher_counters.direct_retain, enabled && swift_retain != 0, memory_order_seq_cst);
}

static _Atomic(stitcher_hazard_take) retain_through_swift;

void stitcher_hazard_set_retain(stitcher_hazard_take _Nonnull take) {
    atomic_store_explicit(&retain_through_swift, take, memory_order_seq_cst);
}

void *_Nullable stitcher_hazard_retain(void *_Nullable *_Nonnull cell, void *_Nullable *_Nonnull source) {
    // Two copies of the read, each with its take known to the compiler.
    if (atomic_load_explicit(&stitcher_counters.direct_retain, memory_order_relaxed)) return follow(cell, source, 0);
    return follow(cell, source, atomic_load_explicit(&retain_through_swift, memory_order_relaxed));
}
