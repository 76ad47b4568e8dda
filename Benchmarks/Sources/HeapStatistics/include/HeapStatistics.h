#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H
#include <stddef.h>

/// Bytes the C heap has handed out and not taken back, mapped blocks included
/// (glibc's mallinfo2; 0 where the C library has none).
size_t heap_statistics_allocated_bytes(void);

#endif
