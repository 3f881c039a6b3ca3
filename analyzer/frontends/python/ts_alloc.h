/* Force-included into tree-sitter's C sources (CMakeLists.txt): routes ts_malloc, ts_calloc,
   ts_realloc and ts_free to cudalint's functions (ts_arena.h), at compile time, instead of
   tree-sitter's global, settable function pointers. */
#ifndef CUDALINT_TS_ALLOC_H
#define CUDALINT_TS_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
void* cudalint_ts_malloc(size_t size);
void* cudalint_ts_calloc(size_t count, size_t size);
void* cudalint_ts_realloc(void* p, size_t size);
void cudalint_ts_free(void* p);
#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
#define ts_malloc cudalint_ts_malloc
#define ts_calloc cudalint_ts_calloc
#define ts_realloc cudalint_ts_realloc
#define ts_free cudalint_ts_free
#endif

#endif
