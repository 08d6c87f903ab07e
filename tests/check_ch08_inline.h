/* check_ch08_inline.h: tests of chapter 8 (helper inline). */
static void ch08_add_inline(Suite *s)
{
    (void)s;
}
