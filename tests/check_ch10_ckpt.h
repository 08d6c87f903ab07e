/* check_ch10_ckpt.h: (helper ckpt fills this in). */

static void ch10_add_ckpt(Suite *s)
{
    (void)s;
}
