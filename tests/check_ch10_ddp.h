/* check_ch10_ddp.h: (helper ddp fills this in). */

static void ch10_add_ddp(Suite *s)
{
    (void)s;
}
