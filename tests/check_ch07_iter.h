/* check_ch07_iter.h: the iter helper's tests of chapter 7 (included by check_ch07.c). */
static void ch07_add_iter(Suite *s)
{
    (void)s;
}
