#line 164 "chapters/01-storage.nw"
/* error.c: recording and reporting failures. */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

static _Thread_local char message[1024];
static _Thread_local bool pending;

const char *tc_error(void) { return pending ? message : NULL; }

void tc_clear_error(void)
{
    pending = false;
    message[0] = '\0';
}

void *tc_fail(const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    pending = true;
    return NULL;
}

bool tc_failed(const void *p)
{
    if (p != NULL)
        return false;
    if (!pending)
        tc_fail("tc: NULL argument, but no earlier call failed");
    return true;
}

const char *tc_format_sizes(char buf[TC_SIZES_STRLEN], int64_t dim,
                            const int64_t *sizes)
{
    size_t len = 0;

    buf[len++] = '[';
    for (int64_t d = 0; d < dim && len < TC_SIZES_STRLEN - 24; d++)
        len += (size_t)snprintf(buf + len, TC_SIZES_STRLEN - len, "%s%lld",
                                d > 0 ? ", " : "", (long long)sizes[d]);
    snprintf(buf + len, TC_SIZES_STRLEN - len, "]");
    return buf;
}
