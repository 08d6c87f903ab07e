/* check_ch07_vec.h: the vec helper's tests of chapter 7 (included by check_ch07.c). */
static void ch07_add_vec(Suite *s)
{
    (void)s;
}
