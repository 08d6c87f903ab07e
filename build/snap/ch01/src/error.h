#line 118 "chapters/01-storage.nw"
/* error.h: the library's one error mechanism. */
#ifndef TC_ERROR_H
#define TC_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The message of the most recent failure in this thread, or NULL if none. */
const char *tc_error(void);

/* Forget the recorded failure. */
void tc_clear_error(void);

/* Record a failure (printf-style message) and return NULL, so that a
   failing function can say `return tc_fail("...");`. */
void *tc_fail(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* True if p is NULL: the result of a call that failed. If no failure is
   recorded (the caller passed NULL by mistake), record one. */
bool tc_failed(const void *p);

/* Write sizes as PyTorch prints a shape in its messages: "[2, 3]". */
enum { TC_SIZES_STRLEN = 512 };
const char *tc_format_sizes(char buf[TC_SIZES_STRLEN], int64_t dim,
                            const int64_t *sizes);

#endif
