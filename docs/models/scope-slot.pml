/* A request scope's numbered slot (the design in docs/scope-slots.md, not yet the code):
 * the thread that opened the scope (the owner) reads, claims and completes its slots
 * without the scope's lock; any other thread (a Provider called elsewhere, a task that
 * outlives the scope's body) uses the lock. A slot's word is EMPTY, CLAIMED by one side,
 * or BUILT (the instance, referenced by the scope until it closes).
 *
 * The owner's store of BUILT and its load of the waiter count, against a waiter's increment
 * and its re-read of the word, is a store-then-load on each side: the owner's stores go
 * through a store buffer (x86-64's TSO; arm64 is weaker, and the implementation uses
 * sequentially consistent operations, whose fences this models).
 *
 *   spin -a scope-slot.pml && gcc -O2 -o pan pan.c && ./pan -m100000   # the design: passes
 *   spin -DPLAIN_STORE ...            # the owner publishes with a plain store: a lost wake-up (fails)
 *   spin -DCOUNT_AFTER_READ ...       # a waiter counts itself after its re-read: a lost wake-up (fails)
 *   spin -DOTHER_READS_WITHOUT_LOCK ...  # another thread reads without the lock: a freed instance (fails)
 *   spin -DTAKE_AFTER_CLOSE ...       # a waiter woken by the close takes the instance: freed (fails)
 *
 * Checked: an instance is built at most once; no reference is taken to a freed instance;
 * no thread blocks forever (spin's invalid end states); every built instance is freed once
 * both threads are done.
 */

#define EMPTY 0
#define CLAIMED_OWNER 1
#define CLAIMED_OTHER 2
#define BUILT 3

byte slot = EMPTY;        /* the slot's word, as memory holds it */
byte buffered;            /* the owner's buffered store to the word */
bool bufferFull = false;
byte waiters = 0;         /* threads about to wait, or waiting, for a build */
bool locked = false;      /* the scope's lock */
byte broadcasts = 0;      /* its condition's broadcasts */
bool closed = false;
byte builds = 0;
byte refs = 0;            /* references to the instance: the scope's and the other thread's */
bool freed = false;
bool otherDone = false;

inline lock() { atomic { !locked -> locked = true } }
inline unlock() { locked = false }

/* pthread_cond_wait: unlocks and sleeps at once; wakes on a broadcast, with the lock. */
inline wait(seen) {
    atomic { seen = broadcasts; locked = false };
    atomic { broadcasts != seen && !locked -> locked = true }
}

inline broadcast() { broadcasts = broadcasts + 1 }

/* The owner's view of the word: its own buffered store first (store forwarding). */
#define OWNER_SLOT (bufferFull -> buffered : slot)

inline ownerStore(v) {
#ifdef PLAIN_STORE
    atomic { buffered = v; bufferFull = true }
#else
    atomic { slot = v; bufferFull = false }   /* a sequentially consistent store drains the buffer */
#endif
}

inline dropReference() {
    atomic { refs = refs - 1; if :: refs == 0 -> freed = true :: else -> skip fi }
}

/* Waits, under the lock, until the word is not claimed by `builder`. */
inline awaitBuild(builder, seen, current) {
    do
    :: current != builder || closed -> break
    :: else ->
#ifdef COUNT_AFTER_READ
        current = slot;
        waiters = waiters + 1;
#else
        waiters = waiters + 1;       /* a sequentially consistent increment */
        current = slot;
#endif
        if
        :: current == builder -> wait(seen)
        :: else -> skip
        fi;
        waiters = waiters - 1;
        current = slot
    od
}

active proctype drain() {
end:
    do
    :: atomic { bufferFull -> slot = buffered; bufferFull = false }
    od
}

active proctype owner() {
    byte seen, current;
    bool claimed = false;
    /* Read without the lock; claim an empty slot by compare-and-swap (a full fence). */
    atomic {
        bufferFull == false;
        if
        :: slot == EMPTY -> slot = CLAIMED_OWNER; claimed = true
        :: else -> skip
        fi
    }
    if
    :: claimed ->
        atomic { assert(builds == 0); builds = 1; refs = 1 };   /* the factory runs; the scope holds the instance */
        ownerStore(BUILT);
        if
        :: waiters > 0 -> lock(); broadcast(); unlock()
        :: else -> skip
        fi
    :: else ->
        /* Claimed by the other thread (or built): wait for it under the lock. */
        lock();
        current = slot;
        awaitBuild(CLAIMED_OTHER, seen, current);
        unlock()
    fi;
    /* A later injection in the scope's body: read without the lock. */
    if
    :: OWNER_SLOT == BUILT -> assert(!freed)
    :: else -> skip
    fi;
    /* The body may wait for the other thread (a task it started) before it returns. */
    if
    :: true -> (otherDone)
    :: true -> skip
    fi;
    /* The body returns: the scope closes under the lock (waking any waiter, which then
     * finds it closed), then lets its instances go. */
    lock();
    closed = true;
    broadcast();
    unlock();
    if
    :: OWNER_SLOT == BUILT -> dropReference()
    :: else -> skip
    fi;
    (otherDone);
    assert(builds == 0 || freed)
}

active proctype other() {
    byte seen, current;
#ifdef OTHER_READS_WITHOUT_LOCK
    if
    :: slot == BUILT -> atomic { assert(!freed); refs = refs + 1 }; dropReference(); goto done
    :: else -> skip
    fi;
#endif
    lock();
    if
    :: closed -> unlock(); goto done   /* the scope has ended: an error, nothing built */
    :: else -> skip
    fi;
    current = slot;
    if
    :: current == EMPTY ->
        /* A compare-and-swap: the owner may claim at the same time, without the lock. */
        atomic {
            if
            :: slot == EMPTY -> slot = CLAIMED_OTHER; current = CLAIMED_OTHER
            :: else -> current = slot
            fi
        }
    :: else -> skip
    fi;
    if
    :: current == CLAIMED_OTHER ->
        unlock();
        atomic { assert(builds == 0); builds = 1; refs = 1 };   /* the factory runs, unlocked */
        lock();
        if
        :: closed -> dropReference()          /* ended meanwhile: torn down at once */
        :: else -> slot = BUILT; atomic { refs = refs + 1 }; dropReference()   /* kept by the scope; ours goes */
        fi;
        broadcast();
        unlock()
    :: else ->
        awaitBuild(CLAIMED_OWNER, seen, current);
        if
        :: closed -> unlock()                 /* woken by the end of the scope: an error */
#ifdef TAKE_AFTER_CLOSE
        :: current == BUILT -> atomic { assert(!freed); refs = refs + 1 }; unlock(); dropReference()
#else
        :: !closed && current == BUILT -> atomic { assert(!freed); refs = refs + 1 }; unlock(); dropReference()
#endif
        :: else -> unlock()
        fi
    fi;
done:
    otherDone = true
}
