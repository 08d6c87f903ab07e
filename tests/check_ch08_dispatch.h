/* check_ch08_dispatch.h: tests of chapter 8 (helper dispatch). */
static void ch08_add_dispatch(Suite *s)
{
    (void)s;
}
