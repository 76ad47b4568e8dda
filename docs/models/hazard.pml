/* The hazard-cell read (stitcher_hazard_follow) against retirement (HazardDomain.retire),
 * with the reader's stores going through a store buffer, as on x86-64 (TSO) and, for
 * the store-then-load pattern this protocol depends on, on arm64.
 *
 * The retiring thread's membarrier is modelled as what it guarantees: at one point during
 * the call, every running thread of the process executes a full barrier, so the reader's
 * buffered stores become visible at once. Loads read memory (a load that bypasses the
 * buffer can only see older values of *other* addresses, which is the case modelled).
 *
 *   spin -a hazard.pml && gcc -O2 -o pan pan.c && ./pan -a          # asymmetric fences
 *   spin -DSYMMETRIC -a hazard.pml && gcc -O2 -o pan pan.c && ./pan  # announcements fenced
 *   spin -DRETAIN_AFTER_CLEAR -a hazard.pml && ...                   # the bug of 24edf6f: fails
 *   spin -DNO_BARRIER -a hazard.pml && ...                           # plain stores, no barrier: fails
 *
 * Checked: the reader never takes a reference to a freed object (assert in `reader`), and
 * the object is freed in every run that ends (assert at the end of `retirer`).
 */

#define NONE 0
#define OBJ  1

byte published = OBJ;   /* the atomic word readers follow */
byte cell = NONE;       /* the reader's hazard cell, as other threads see it */
byte buffered = NONE;   /* the reader's buffered store to its cell (NONE = empty) */
bool bufferFull = false;
bool freed = false;
bool taken = false;     /* the reader holds its own reference */
bool released = false;  /* ... and has dropped it */

/* The reader's store to its cell: buffered (a plain store), or fenced. */
inline storeCell(v) {
#ifdef SYMMETRIC
    atomic { cell = v }
#else
    atomic { buffered = v; bufferFull = true }
#endif
}

/* The buffer drains on its own at any time. */
active proctype drain() {
end:
    do
    :: atomic { bufferFull -> cell = buffered; bufferFull = false }
    od
}

active proctype reader() {
    byte p, q;
    p = published;
    if
    :: p == NONE -> goto done
    :: else -> skip
    fi;
    storeCell(p);                 /* announce */
    q = published;                /* confirm */
    if
    :: q != p -> storeCell(NONE); goto done
    :: else -> skip
    fi;
#ifdef RETAIN_AFTER_CLEAR
    storeCell(NONE);              /* the optimizer moved the retain below the clear */
    atomic { assert(!freed); taken = true }
#else
    atomic { assert(!freed); taken = true }   /* take: retain */
    storeCell(NONE);              /* clear (release store) */
#endif
    released = true;              /* the reader's own reference goes */
done:
    skip
}

active proctype retirer() {
    published = NONE;             /* unpublish: an atomic exchange */
#if !defined(SYMMETRIC) && !defined(NO_BARRIER)
    /* membarrier: the reader's buffered stores become visible */
    atomic { if :: bufferFull -> cell = buffered; bufferFull = false :: else -> skip fi }
#endif
    /* scan, then free if not announced; else wait (yield) and scan again */
    do
    :: cell != OBJ -> break
    :: else -> skip
    od;
    /* The retiring thread's reference goes; the object is freed once the reader's is gone too. */
    (!taken || released);
    freed = true
}
