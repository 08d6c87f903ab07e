/* check_ch07_matmul.h: the matmul helper's tests of chapter 7 (included by check_ch07.c). */
static void ch07_add_matmul(Suite *s)
{
    (void)s;
}
