/* check_ch07_reduce.h: the reduce helper's tests of chapter 7 (included by check_ch07.c). */
static void ch07_add_reduce(Suite *s)
{
    (void)s;
}
