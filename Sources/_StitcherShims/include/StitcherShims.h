// The few things Stitcher's lookup path needs that Swift cannot express: a thread-local
// variable read with one instruction, and process-wide counters that need no lazy
// initialization. Internal to Stitcher.
#ifndef STITCHER_SHIMS_H
#define STITCHER_SHIMS_H

#include <stdatomic.h>

/// For the accessors of the thread-local frame counters, which every resolution calls:
/// without it, some Swift functions kept calls to out-of-line copies.
#define STITCHER_ALWAYS_INLINE __attribute__((always_inline))

#if defined(__ELF__)
#define STITCHER_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define STITCHER_TLS_MODEL
#endif

/// The calling thread's `ThreadState` (unretained; the thread-specific key that destroys it
/// holds the reference), or NULL before the thread's first lookup.
extern _Thread_local void *_Nullable stitcher_thread_state STITCHER_TLS_MODEL;

/// The calling thread's resolution path, as far as ending a value's build needs it: how many
/// frames are on it (`FrameStack`'s count) and whether its outermost resolution kept
/// something to forget when it ends (`ThreadState.popFrame()`). In C so that the end of
/// a value's build, inlined into the injecting code, pops its frame with no call and no
/// Swift object layout assumed (`stitcher_pop_frame`).
typedef struct {
    long count;
    long keeps;
} stitcher_frame_counters;

extern _Thread_local stitcher_frame_counters stitcher_frames STITCHER_TLS_MODEL;

/// The process-wide values every lookup reads, alone on their cache line: a neighbour
/// written by other code would make reading threads contend. All change rarely.
typedef struct {
    /// How many isolated graphs are bound right now.
    _Alignas(128) _Atomic(long) isolated_graphs;
    /// Whether `.instance` instantiations are tracked for cycle detection (0 or 1).
    _Atomic(long) detects_cycles;
    /// Whether hazard announcements are plain stores (1), made visible by the process-wide
    /// barrier that retiring threads run (`stitcher_hazard_barrier`), or full fences (0).
    _Atomic(long) asymmetric_fences;
    /// How many graphs have a resolution observer set right now.
    _Atomic(long) observed_graphs;
    /// How many graphs set their own cycle detection right now.
    _Atomic(long) cycle_overrides;
    /// Whether a dependency scope has ever been bound to a task (0 or 1): set once, as a
    /// count of the scopes bound now would be written by every request of a server.
    _Atomic(long) task_scopes_bound;
    /// Whether published reads retain with the runtime's `swift_retain` called from C (1)
    /// or through a Swift function (0); see `stitcher_hazard_retain`.
    _Atomic(long) direct_retain;
    char padding[72];
} stitcher_lookup_counters;

extern stitcher_lookup_counters stitcher_counters;

/// The process-wide count that changes often (with every stored instance built while its
/// path is shared with child tasks, as a request scope's are), on a cache line of its own:
/// beside the values above, its writes would make every lookup on another core miss.
typedef struct {
    /// How many resolution paths are bound for child tasks right now.
    _Alignas(128) _Atomic(long) inherited_paths;
    char padding[120];
} stitcher_path_counter;

extern stitcher_path_counter stitcher_paths;

static inline void *_Nullable stitcher_current_thread_state(void) { return stitcher_thread_state; }

static inline void stitcher_set_current_thread_state(void *_Nullable state) { stitcher_thread_state = state; }

STITCHER_ALWAYS_INLINE static inline long stitcher_frame_count(void) { return stitcher_frames.count; }

STITCHER_ALWAYS_INLINE static inline void stitcher_set_frame_count(long count) { stitcher_frames.count = count; }

STITCHER_ALWAYS_INLINE static inline long stitcher_resolution_keeps(void) { return stitcher_frames.keeps; }

STITCHER_ALWAYS_INLINE static inline void stitcher_set_resolution_keeps(long keeps) { stitcher_frames.keeps = keeps; }

/// Pops the calling thread's innermost frame, which holds no reference (a frame is
/// trivially destroyed: `FrameStack` checks it), and answers whether that ended an outermost
/// resolution that kept something to forget, which the caller then forgets
/// (`ThreadState.popFrame()`, and the end of a value's build in the injecting code).
STITCHER_ALWAYS_INLINE static inline int stitcher_pop_frame(void) {
    long count = --stitcher_frames.count;
    return count == 0 && stitcher_frames.keeps != 0;
}

static inline long stitcher_isolated_graph_count(void) {
    return atomic_load_explicit(&stitcher_counters.isolated_graphs, memory_order_relaxed);
}

static inline void stitcher_add_isolated_graphs(long delta) {
    atomic_fetch_add_explicit(&stitcher_counters.isolated_graphs, delta, memory_order_relaxed);
}

static inline long stitcher_inherited_path_count(void) {
    return atomic_load_explicit(&stitcher_paths.inherited_paths, memory_order_relaxed);
}

static inline void stitcher_add_inherited_paths(long delta) {
    atomic_fetch_add_explicit(&stitcher_paths.inherited_paths, delta, memory_order_relaxed);
}

static inline long stitcher_detects_cycles(void) {
    return atomic_load_explicit(&stitcher_counters.detects_cycles, memory_order_relaxed);
}

static inline void stitcher_set_detects_cycles(long enabled) {
    atomic_store_explicit(&stitcher_counters.detects_cycles, enabled, memory_order_relaxed);
}

static inline long stitcher_observed_graph_count(void) {
    return atomic_load_explicit(&stitcher_counters.observed_graphs, memory_order_relaxed);
}

static inline void stitcher_add_observed_graphs(long delta) {
    atomic_fetch_add_explicit(&stitcher_counters.observed_graphs, delta, memory_order_relaxed);
}

static inline long stitcher_cycle_override_count(void) {
    return atomic_load_explicit(&stitcher_counters.cycle_overrides, memory_order_relaxed);
}

static inline long stitcher_task_scopes_bound(void) {
    return atomic_load_explicit(&stitcher_counters.task_scopes_bound, memory_order_relaxed);
}

/// Records that a scope is bound to a task; written only the first time.
static inline void stitcher_note_task_scope_bound(void) {
    if (!atomic_load_explicit(&stitcher_counters.task_scopes_bound, memory_order_relaxed)) {
        atomic_store_explicit(&stitcher_counters.task_scopes_bound, 1, memory_order_relaxed);
    }
}

/// The Swift runtime's accessor of the task running on the calling thread (NULL outside a
/// task), which Swift exposes only through `withUnsafeCurrentTask`, at ten times the cost.
/// It takes no argument and returns a pointer, so the C calling convention matches.
/// Referenced weakly: where the runtime lacks it, every thread reads as outside a task. The
/// pointer is only compared (a scope bound on a thread is seen by the task that bound it),
/// never followed, so a runtime that answered otherwise could only widen that binding to
/// other code on the same thread during a synchronous region, never touch freed memory.
extern void *_Nullable swift_task_getCurrent(void) __attribute__((weak));

static inline void *_Nullable stitcher_current_task(void) {
    return swift_task_getCurrent ? swift_task_getCurrent() : (void *)0;
}

static inline void stitcher_add_cycle_overrides(long delta) {
    atomic_fetch_add_explicit(&stitcher_counters.cycle_overrides, delta, memory_order_relaxed);
}

// MARK: Hazard cells (see `HazardDomain` and docs/Reclamation.md)

/// Turns the object a reader reached into the reference it keeps: retains it (a published
/// instance) or loads the strong reference a box holds (a shared instance's weak box).
/// Returns a +1 reference, or NULL. Written in Swift, called from C: no Swift optimizer
/// sees both this call and the end of the announcement that follows it.
typedef void *_Nullable (*stitcher_hazard_take)(void *_Nonnull object);

/// Follows the pointer `source` publishes, protected by an announcement in `cell`, and
/// returns what `take` makes of it (+1), or NULL when nothing is published.
///
/// The whole read is one C function, compiled apart from Swift: announce, confirm that
/// `source` still publishes the pointer (else follow the new one), `take`, end the
/// announcement. The end is a release store after an opaque call, so no compiler can move
/// the retain after it (Swift's ARC optimizer did, when this sequence was written in Swift:
/// the retain of a published instance ran after the announcement ended, and a retiring
/// thread freed the instance in between).
void *_Nullable stitcher_hazard_follow(
    void *_Nullable *_Nonnull cell, void *_Nullable *_Nonnull source, stitcher_hazard_take _Nonnull take);

/// `stitcher_hazard_follow` for a published object, retained: by the runtime's
/// `swift_retain`, called directly, once Swift checked that it retains (`HazardDomain`,
/// release builds); otherwise by the `take` given to `stitcher_hazard_set_retain` (checked
/// builds, whose Swift function checks retired addresses). Set before the first read.
void *_Nullable stitcher_hazard_retain(void *_Nullable *_Nonnull cell, void *_Nullable *_Nonnull source);

/// The Swift function `stitcher_hazard_retain` calls when it does not call the runtime.
void stitcher_hazard_set_retain(stitcher_hazard_take _Nonnull take);

/// Whether the runtime exports `swift_retain` (a weak reference: NULL where it does not).
_Bool stitcher_hazard_runtime_has_retain(void);

/// Turns the direct retain on or off (Swift's check, or a test forcing the fallback).
void stitcher_hazard_set_direct_retain(_Bool enabled);

/// Ends an announcement (for tests and retirement of a cell): a release store.
void stitcher_hazard_clear(void *_Nullable *_Nonnull cell);

/// Announces `pointer` in `cell` (for the primitive's own tests; readers use
/// `stitcher_hazard_follow`).
void stitcher_hazard_announce(void *_Nullable *_Nonnull cell, void *_Nullable pointer);

/// What a cell announces, read by a retiring thread after `stitcher_hazard_barrier()`.
static inline void *_Nullable stitcher_hazard_read(void *_Nullable *_Nonnull cell) {
    return atomic_load_explicit((_Atomic(void *) *)cell, memory_order_seq_cst);
}

/// Whether announcements are plain stores made visible by `membarrier` (1) or fences (0).
static inline long stitcher_hazard_uses_asymmetric_fences(void) {
    return atomic_load_explicit(&stitcher_counters.asymmetric_fences, memory_order_relaxed);
}

/// Makes announcements full fences from now on, as where `membarrier` is missing (tests
/// force the fallback with it). Only ever turns the asymmetric mode off.
void stitcher_hazard_use_symmetric_fences(void);

/// The slots of `ExistentialTemplates`: each the address of a template, or 0. Written once.
#define STITCHER_TEMPLATE_SLOTS 256
extern _Atomic(void *) stitcher_existential_templates[STITCHER_TEMPLATE_SLOTS];

/// The template in `slot` (masked to the table), or NULL.
static inline void *_Nullable stitcher_existential_template(unsigned long slot) {
    return atomic_load_explicit(&stitcher_existential_templates[slot & (STITCHER_TEMPLATE_SLOTS - 1)], memory_order_acquire);
}

/// Stores `template` in `slot` (masked to the table) if it is empty; false if it was not.
static inline _Bool stitcher_publish_existential_template(unsigned long slot, void *_Nonnull template) {
    void *expected = 0;
    return atomic_compare_exchange_strong_explicit(
        &stitcher_existential_templates[slot & (STITCHER_TEMPLATE_SLOTS - 1)], &expected, template,
        memory_order_release, memory_order_relaxed);
}

/// Tables of what the engine learns about types, each slot one word written with relaxed
/// atomics (a slot publishes nothing but itself): `UnawareTypes`' types known not to be
/// `PostInstantiationAware` (a type's metadata address, or 0), and
/// `ExistentialDynamicTypes`' places of a value's type in an existential (the existential's
/// metadata address with flags in its low bits, or 0). C's, so that reading them needs no
/// lazy initialization.
#define STITCHER_UNAWARE_TYPE_SLOTS 128
#define STITCHER_EXISTENTIAL_PLACE_SLOTS 64
extern _Atomic(unsigned long) stitcher_unaware_types[STITCHER_UNAWARE_TYPE_SLOTS];
extern _Atomic(unsigned long) stitcher_existential_places[STITCHER_EXISTENTIAL_PLACE_SLOTS];

/// The word in `slot` (masked to the table) of `UnawareTypes`.
static inline unsigned long stitcher_unaware_type(unsigned long slot) {
    return atomic_load_explicit(&stitcher_unaware_types[slot & (STITCHER_UNAWARE_TYPE_SLOTS - 1)], memory_order_relaxed);
}

/// Stores `word` in `slot` (masked to the table) of `UnawareTypes`.
static inline void stitcher_set_unaware_type(unsigned long slot, unsigned long word) {
    atomic_store_explicit(&stitcher_unaware_types[slot & (STITCHER_UNAWARE_TYPE_SLOTS - 1)], word, memory_order_relaxed);
}

/// The word in `slot` (masked to the table) of `ExistentialDynamicTypes`.
static inline unsigned long stitcher_existential_place(unsigned long slot) {
    return atomic_load_explicit(
        &stitcher_existential_places[slot & (STITCHER_EXISTENTIAL_PLACE_SLOTS - 1)], memory_order_relaxed);
}

/// Stores `word` in `slot` (masked to the table) of `ExistentialDynamicTypes` if the slot
/// still holds `expected`; false if it does not.
static inline _Bool stitcher_replace_existential_place(unsigned long slot, unsigned long expected, unsigned long word) {
    return atomic_compare_exchange_strong_explicit(
        &stitcher_existential_places[slot & (STITCHER_EXISTENTIAL_PLACE_SLOTS - 1)], &expected, word,
        memory_order_relaxed, memory_order_relaxed);
}

/// Makes every thread's earlier announcements visible to the caller, and the caller's
/// earlier stores visible to every thread's later loads: Linux's `membarrier` when
/// `asymmetric_fences` is set, otherwise a fence (announcements are then fences themselves).
void stitcher_hazard_barrier(void);

/// Turns on asymmetric fences where the system offers a process-wide barrier. Called once,
/// before the first hazard cell exists.
void stitcher_hazard_setup(void);

#endif
