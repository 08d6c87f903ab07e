#line 287 "chapters/01-storage.nw"
/* storage.c */
#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "storage.h"

static void *fail_allocation(size_t nbytes)
{
    return tc_fail("DefaultCPUAllocator: can't allocate memory: you tried to "
                   "allocate %zu bytes. Error code 12 (Cannot allocate memory)",
                   nbytes);
}

tc_storage *tc_storage_new(size_t nbytes)
{
    tc_storage *storage;

    if (nbytes > SIZE_MAX - TC_ALIGNMENT)
        return fail_allocation(nbytes);
    storage = malloc(sizeof *storage);
    if (storage == NULL)
        return fail_allocation(sizeof *storage);
    storage->data = NULL;
    if (nbytes > 0) {
        size_t rounded = (nbytes + TC_ALIGNMENT - 1) / TC_ALIGNMENT * TC_ALIGNMENT;
        storage->data = aligned_alloc(TC_ALIGNMENT, rounded);
        if (storage->data == NULL) {
            free(storage);
            return fail_allocation(nbytes);
        }
    }
    storage->nbytes = nbytes;
    storage->refcount = 1;
    return storage;
}

tc_storage *tc_storage_retain(tc_storage *storage)
{
    if (storage != NULL)
        storage->refcount++;
    return storage;
}

void tc_storage_release(tc_storage *storage)
{
    if (storage == NULL || --storage->refcount > 0)
        return;
    free(storage->data);
    free(storage);
}
