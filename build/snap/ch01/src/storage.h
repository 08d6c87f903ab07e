#line 246 "chapters/01-storage.nw"
/* storage.h: reference-counted flat buffers that tensors share. */
#ifndef TC_STORAGE_H
#define TC_STORAGE_H

#include <stddef.h>

typedef struct tc_storage {
    void *data;      /* NULL when nbytes == 0, as in PyTorch */
    size_t nbytes;
    int refcount;    /* owners; the storage is freed when it drops to 0 */
} tc_storage;

/* Storage data is aligned for the widest SIMD loads of chapter 7. */
enum { TC_ALIGNMENT = 64 };

/* A new storage of nbytes uninitialised bytes, with one reference.
   Checked runtime error: not enough memory. */
tc_storage *tc_storage_new(size_t nbytes);

tc_storage *tc_storage_retain(tc_storage *storage);
void tc_storage_release(tc_storage *storage);

#endif
