/* check_ch08_inline.h: tests of chapter 8's load_inline (helper inline).

   Every test works in its own mkdtemp directory under $TMPDIR (or /tmp),
   never in the user's cache, and removes it. The compiler is a wrapper
   script in that directory that appends a line to a file for each call and
   then runs cc: the number of lines is the number of builds. Loads whose
   effect on the disk is under test run in forked children, so that the
   test process never has an object mapped while the test damages it, and
   so that a second process really starts from the disk. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Room for a path and a message around it. */
enum { INLINE_PATH = TC_PATH_MAX + 512 };

/* ---- SHA-256 ------------------------------------------------------------- */

static void inline_expect_sha256(const void *data, size_t n, const char *expected)
{
    char hex[65];

    tc_sha256_hex(data, n, hex);
    ck_assert_str_eq(hex, expected);
}

/* The examples of FIPS 180-4 (NIST's SHA256.pdf and SHA2_Additional.pdf). */
START_TEST(test_sha256_fips_vectors)
{
    static char million[1000000];

    inline_expect_sha256("", 0,
                         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    inline_expect_sha256("abc", 3,
                         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    inline_expect_sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
                         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    memset(million, 'a', sizeof million);
    inline_expect_sha256(million, sizeof million,
                         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

/* Lengths around the padding's edges (55 bytes: the length fits in the
   last block; 56: it needs one more), from Python's hashlib. */
START_TEST(test_sha256_padding_edges)
{
    static const struct { size_t n; const char *hex; } cases[] = {
        { 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
        { 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
        { 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
        { 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
        { 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
        { 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
        { 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
    };
    char a[120];

    memset(a, 'a', sizeof a);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        inline_expect_sha256(a, cases[i].n, cases[i].hex);
}
END_TEST

/* Fed in pieces of every length from 1 to 70, the 448-bit message hashes
   as it does whole. */
START_TEST(test_sha256_in_pieces)
{
    static const char text[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const unsigned char expected[4] = { 0x24, 0x8d, 0x6a, 0x61 };

    for (size_t piece = 1; piece <= 70; piece++) {
        unsigned char digest[32];
        tc_sha256 h;

        tc_sha256_init(&h);
        for (size_t at = 0; at < 56; at += piece)
            tc_sha256_update(&h, text + at, 56 - at < piece ? 56 - at : piece);
        tc_sha256_final(&h, digest);
        ck_assert_mem_eq(digest, expected, 4);
        ck_assert_uint_eq(digest[31], 0xc1);
    }
}
END_TEST

/* ---- a scratch directory, a counting compiler ------------------------------ */

struct inline_env {
    char dir[256];                   /* the test's directory */
    char cache[300];                 /* dir/cache: the extensions' root */
    char wrapper[300];               /* dir/cc: the counting compiler */
    char count[300];                 /* dir/count: one line per build */
    tc_inline_options options;
};

/* A new scratch directory with a wrapper compiler that sleeps `sleep`
   (a sleep(1) argument, "0" for none) before it compiles. */
static void inline_setup(struct inline_env *e, const char *sleep)
{
    const char *tmpdir = getenv("TMPDIR");
    FILE *f;

    snprintf(e->dir, sizeof e->dir, "%s/tc-inline-XXXXXX",
             tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(e->dir));
    snprintf(e->cache, sizeof e->cache, "%s/cache", e->dir);
    snprintf(e->wrapper, sizeof e->wrapper, "%s/cc", e->dir);
    snprintf(e->count, sizeof e->count, "%s/count", e->dir);
    f = fopen(e->wrapper, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho build >> '%s'\nsleep %s\nexec cc \"$@\"\n", e->count, sleep);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(e->wrapper, 0755), 0);
    e->options = (tc_inline_options){ .compiler = e->wrapper, .build_dir = e->cache,
                                      .cflags = "-O0" };
}

/* How many times the wrapper ran. */
static int inline_builds(const struct inline_env *e)
{
    FILE *f = fopen(e->count, "r");
    int n = 0, c;

    while (f != NULL && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f != NULL)
        fclose(f);
    return n;
}

static void inline_remove_tree(const char *path)
{
    struct stat st;

    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *entry;

        while (d != NULL && (entry = readdir(d)) != NULL) {
            char child[INLINE_PATH];
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
            inline_remove_tree(child);
        }
        if (d != NULL)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void inline_teardown(struct inline_env *e)
{
    inline_remove_tree(e->dir);
}

/* A file of the extension's cache directory: "<dir of ext>/<file>". */
static void inline_file(char path[INLINE_PATH], const tc_extension *ext, const char *file)
{
    snprintf(path, INLINE_PATH, "%s", ext->path);
    snprintf(strrchr(path, '/') + 1, INLINE_PATH - (size_t)(strrchr(path, '/') + 1 - path),
             "%s", file);
}

static bool inline_exists(const char *path)
{
    struct stat st;

    return lstat(path, &st) == 0;
}

/* ---- the extensions the tests load ------------------------------------- */

static const char INLINE_TWICE[] =
    "#include <tc/tc.h>\n"
    "tc_tensor *twice(const tc_tensor *x) { return tc_add(x, x); }\n";
static const char INLINE_THRICE[] =
    "#include <tc/tc.h>\n"
    "tc_tensor *twice(const tc_tensor *x)\n"
    "{\n"
    "    tc_tensor *y = tc_add(x, x), *z = tc_add(y, x);\n"
    "    tc_release(y);\n"
    "    return z;\n"
    "}\n";
static const char *const INLINE_TWICE_FN[] = { "twice(Tensor x) -> Tensor" };

/* Call op on [0, 1, 2] and expect [0, k, 2k]. */
static void inline_expect_times(const tc_op *op, double k)
{
    tc_tensor *x = testing_grid(TC_SHAPE(3));
    tc_tensor *y;

    ck_assert_ptr_nonnull(op);
    y = tc_op_call(op, 1, (tc_value[]){ tc_value_tensor(x) });
    ck_assert_msg(y != NULL, "%s", tc_error());
    ck_assert_int_eq(y->dim, 1);
    ck_assert_int_eq(y->sizes[0], 3);
    for (int64_t i = 0; i < 3; i++)
        ck_assert_double_eq(testing_get(y, IDX(i)), k * (double)i);
    tc_release(y);
    tc_release(x);
}

/* A forked child that has written its reply ends at once, without the
   exit handlers of the test program, which belong to the parent. */
static void inline_child_ends(void)
{
    _exit(0);
}

/* Load in a forked child: 'c' if it compiled, 'h' if it came from the
   cache, 'e' and the message in why if it failed. The child leaves with
   _exit, so that nothing of the test process runs twice. */
static char inline_load_in_child(const struct inline_env *e, const char *name,
                                 const char *source, char why[INLINE_PATH])
{
    int fds[2];
    pid_t pid;
    char reply[INLINE_PATH] = { 0 };
    ssize_t n, got = 0;

    ck_assert_int_eq(pipe(fds), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        const tc_extension *ext;
        close(fds[0]);
        ext = tc_load_inline(name, source, 1, INLINE_TWICE_FN, &e->options);
        if (ext == NULL)
            dprintf(fds[1], "e%s", tc_error());
        else
            dprintf(fds[1], "%c", ext->compiled ? 'c' : 'h');
        inline_child_ends();
    }
    close(fds[1]);
    while ((n = read(fds[0], reply + got, sizeof reply - 1 - (size_t)got)) > 0)
        got += n;
    close(fds[0]);
    waitpid(pid, NULL, 0);
    snprintf(why, INLINE_PATH, "%s", got > 1 ? reply + 1 : "");
    return got > 0 ? reply[0] : '?';
}

/* ---- load_inline ------------------------------------------------------------ */

/* A cold build: compiled once, in <root>/<name>-<key[0:16]>/, the root
   from TC_EXTENSIONS_DIR; the directories private; the digest file holds
   the object's SHA-256; the function registered as "<name>::twice". */
START_TEST(test_inline_cold_build)
{
    struct inline_env e;
    const tc_extension *ext;
    char path[INLINE_PATH], recorded[80] = { 0 }, actual[65];
    struct stat st;
    FILE *f;

    inline_setup(&e, "0");
    e.options.build_dir = NULL;
    ck_assert_int_eq(setenv("TC_EXTENSIONS_DIR", e.cache, 1), 0);
    ext = tc_load_inline("twice_cold", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    unsetenv("TC_EXTENSIONS_DIR");
    ck_assert_msg(ext != NULL, "%s", tc_error());
    ck_assert(ext->compiled);
    ck_assert_int_eq(inline_builds(&e), 1);
    ck_assert_str_eq(ext->name, "twice_cold");
    ck_assert_uint_eq(strlen(ext->key), 64);
    ck_assert_uint_eq(strspn(ext->key, "0123456789abcdef"), 64);
    snprintf(path, sizeof path, "%s/twice_cold-%.16s/twice_cold.so", e.cache, ext->key);
    ck_assert_str_eq(ext->path, path);
    ck_assert_int_eq(lstat(e.cache, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0700);
    inline_file(path, ext, "");
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0700);
    inline_file(path, ext, "twice_cold.so.sha256");
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(recorded, sizeof recorded, f));
    fclose(f);
    {
        FILE *so = fopen(ext->path, "rb");
        static unsigned char bytes[1 << 20];
        size_t n;
        ck_assert_ptr_nonnull(so);
        n = fread(bytes, 1, sizeof bytes, so);
        fclose(so);
        ck_assert_uint_lt(n, sizeof bytes);
        tc_sha256_hex(bytes, n, actual);
    }
    ck_assert_uint_eq(strlen(recorded), 65);
    ck_assert_mem_eq(recorded, actual, 64);
    inline_file(path, ext, "twice_cold.c");
    ck_assert(inline_exists(path));
    inline_file(path, ext, "build.log");
    ck_assert(inline_exists(path));
    ck_assert_int_eq(ext->nops, 1);
    ck_assert_str_eq(tc_op_name(ext->ops[0]), "twice_cold::twice");
    ck_assert_ptr_eq(tc_op_find("twice_cold::twice"), ext->ops[0]);
    inline_expect_times(ext->ops[0], 2);
    inline_teardown(&e);
}
END_TEST

/* The same extension again: from the cache, the compiler not run, in this
   process (the same operator) and in a new one. */
START_TEST(test_inline_cache_hit)
{
    struct inline_env e;
    const tc_extension *first, *again;
    char why[INLINE_PATH];

    inline_setup(&e, "0");
    first = tc_load_inline("twice_hit", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(first != NULL, "%s", tc_error());
    ck_assert(first->compiled);
    again = tc_load_inline("twice_hit", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(again != NULL, "%s", tc_error());
    ck_assert(!again->compiled);
    ck_assert_str_eq(again->name, "twice_hit");
    ck_assert_str_eq(again->key, first->key);
    ck_assert_ptr_eq(again->ops[0], first->ops[0]);
    ck_assert_int_eq(inline_builds(&e), 1);
    ck_assert_int_eq(inline_load_in_child(&e, "twice_hit", INLINE_TWICE, why), 'h');
    ck_assert_int_eq(inline_builds(&e), 1);
    inline_expect_times(again->ops[0], 2);
    inline_teardown(&e);
}
END_TEST

/* A changed source under the same name: a new key, a new build, the name
   "ver_v1" (PyTorch's ExtensionVersioner); back to the first source:
   "ver_v2", as PyTorch counts, but from the cache. Other flags: another key. */
START_TEST(test_inline_changed_source)
{
    struct inline_env e;
    const tc_extension *a, *b, *a2, *c;

    inline_setup(&e, "0");
    a = tc_load_inline("ver", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(a != NULL, "%s", tc_error());
    b = tc_load_inline("ver", INLINE_THRICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(b != NULL, "%s", tc_error());
    ck_assert_str_eq(a->name, "ver");
    ck_assert_str_eq(b->name, "ver_v1");
    ck_assert(b->compiled);
    ck_assert_str_ne(a->key, b->key);
    ck_assert_int_eq(inline_builds(&e), 2);
    ck_assert_str_eq(tc_op_name(b->ops[0]), "ver_v1::twice");
    inline_expect_times(tc_op_find("ver::twice"), 2);
    inline_expect_times(tc_op_find("ver_v1::twice"), 3);
    a2 = tc_load_inline("ver", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(a2 != NULL, "%s", tc_error());
    ck_assert_str_eq(a2->name, "ver_v2");
    ck_assert(!a2->compiled);
    ck_assert_str_eq(a2->key, a->key);
    ck_assert_int_eq(inline_builds(&e), 2);
    inline_expect_times(tc_op_find("ver_v2::twice"), 2);
    e.options.cflags = "-O1";
    c = tc_load_inline("ver", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
    ck_assert_msg(c != NULL, "%s", tc_error());
    ck_assert_str_eq(c->name, "ver_v3");
    ck_assert_str_ne(c->key, a->key);
    ck_assert_int_eq(inline_builds(&e), 3);
    inline_teardown(&e);
}
END_TEST

/* A compile error: the compiler's own message in tc_error(), after
   PyTorch's "Error building extension 'name': "; no object, no digest, no
   temporary left; the operator not defined. */
START_TEST(test_inline_compile_error)
{
    static const char source[] =
        "#include <tc/tc.h>\n"
        "tc_tensor *twice(const tc_tensor *x) { (void)x; return not_declared_here; }\n";
    struct inline_env e;
    char path[INLINE_PATH], dir[TC_PATH_MAX];
    const char *message;
    DIR *d;
    struct dirent *entry;
    int files = 0;

    inline_setup(&e, "0");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("broken", source, 1, INLINE_TWICE_FN, &e.options));
    message = tc_error();
    ck_assert_ptr_nonnull(message);
    ck_assert_msg(strncmp(message, "Error building extension 'broken': ", 35) == 0, "%s",
                  message);
    ck_assert_msg(strstr(message, "not_declared_here") != NULL, "%s", message);
    ck_assert_msg(strstr(message, "error") != NULL, "%s", message);
    ck_assert_ptr_null(tc_op_find("broken::twice"));
    d = opendir(e.cache);
    ck_assert_ptr_nonnull(d);
    while ((entry = readdir(d)) != NULL)
        if (strncmp(entry->d_name, "broken-", 7) == 0)
            snprintf(dir, sizeof dir, "%s/%s", e.cache, entry->d_name);
    closedir(d);
    d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        files++;
        ck_assert_msg(strcmp(entry->d_name, "broken.c") == 0
                      || strcmp(entry->d_name, "build.log") == 0
                      || strcmp(entry->d_name, "lock") == 0, "left: %s", entry->d_name);
    }
    closedir(d);
    ck_assert_int_eq(files, 3);
    snprintf(path, sizeof path, "%s/broken.so", dir);
    ck_assert(!inline_exists(path));
    tc_clear_error();
    inline_teardown(&e);
}
END_TEST

/* A function the object does not define: named in the message; nothing
   registered. */
START_TEST(test_inline_missing_function)
{
    static const char *const functions[] = { "twice(Tensor x) -> Tensor",
                                             "absent(Tensor x) -> Tensor" };
    struct inline_env e;
    const tc_extension *ext;

    inline_setup(&e, "0");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("holes", INLINE_TWICE, 2, functions, &e.options));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_msg(strncmp(tc_error(), "Error loading extension 'holes': the object has no "
                          "function 'absent' (", 69) == 0, "%s", tc_error());
    ck_assert_ptr_null(tc_op_find("holes::twice"));
    tc_clear_error();
    ext = tc_load_inline("holes", INLINE_TWICE, 1, functions, &e.options);
    ck_assert_msg(ext != NULL, "%s", tc_error());
    ck_assert_str_eq(ext->name, "holes");    /* a failed load is no version */
    inline_expect_times(ext->ops[0], 2);
    inline_teardown(&e);
}
END_TEST

/* A compiler that is not there: which one, and nothing created. $CC is the
   compiler when options.compiler is NULL. */
START_TEST(test_inline_missing_compiler)
{
    struct inline_env e;

    inline_setup(&e, "0");
    e.options.compiler = "no-such-compiler-tc8 -O2";
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("nocc", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options));
    ck_assert_pstr_eq(tc_error(), "Error building extension 'nocc': compiler "
                      "'no-such-compiler-tc8' not found (set CC or options.compiler)");
    e.options.compiler = NULL;
    ck_assert_int_eq(setenv("CC", "/nonexistent/tc8-cc", 1), 0);
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("nocc", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options));
    unsetenv("CC");
    ck_assert_pstr_eq(tc_error(), "Error building extension 'nocc': compiler "
                      "'/nonexistent/tc8-cc' not found (set CC or options.compiler)");
    ck_assert(!inline_exists(e.cache));
    tc_clear_error();
    inline_teardown(&e);
}
END_TEST

/* Two processes load the same new extension at once: one compiles (the
   wrapper sleeps 0.3 s, so the other arrives while it works), the other
   waits on the lock and loads the object from the cache. */
START_TEST(test_inline_two_processes)
{
    struct inline_env e;
    int fds[2][2];
    pid_t pids[2];
    char replies[2][1025];
    int compiled = 0;

    inline_setup(&e, "0.3");
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(pipe(fds[i]), 0);
        pids[i] = fork();
        ck_assert_int_ge(pids[i], 0);
        if (pids[i] == 0) {
            const tc_extension *ext =
                tc_load_inline("race", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options);
            if (ext == NULL)
                dprintf(fds[i][1], "e%s", tc_error());
            else
                dprintf(fds[i][1], "%c", ext->compiled ? 'c' : 'h');
            inline_child_ends();
        }
        close(fds[i][1]);
    }
    for (int i = 0; i < 2; i++) {
        ssize_t n = read(fds[i][0], replies[i], 1024);
        replies[i][n > 0 ? n : 0] = '\0';
        close(fds[i][0]);
        waitpid(pids[i], NULL, 0);
        ck_assert_msg(replies[i][0] == 'c' || replies[i][0] == 'h', "%s", replies[i]);
        compiled += replies[i][0] == 'c';
    }
    ck_assert_int_eq(compiled, 1);
    ck_assert_int_eq(inline_builds(&e), 1);
    inline_teardown(&e);
}
END_TEST

/* A cache that others could change is refused, with the reason: writable
   by others, owned by another user, a symbolic link. */
START_TEST(test_inline_insecure_directory)
{
    struct inline_env e;
    char expected[INLINE_PATH], link[400];
    const char *other;

    inline_setup(&e, "0");
    ck_assert_int_eq(mkdir(e.cache, 0700), 0);
    ck_assert_int_eq(chmod(e.cache, 0777), 0);
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("open", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options));
    snprintf(expected, sizeof expected, "Error building extension 'open': refusing the "
             "directory %s: it is writable by group or others (mode 0777)", e.cache);
    ck_assert_pstr_eq(tc_error(), expected);

    /* as root: a directory of uid 65534; as another user: "/", root's */
    ck_assert_int_eq(chmod(e.cache, 0700), 0);
    if (geteuid() == 0) {
        ck_assert_int_eq(chown(e.cache, 65534, 65534), 0);
        other = e.cache;
    } else {
        other = "/";
    }
    e.options.build_dir = other;
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("open", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options));
    snprintf(expected, sizeof expected, "Error building extension 'open': refusing the "
             "directory %s: it is owned by uid %ld, not by this user (uid %ld)", other,
             geteuid() == 0 ? 65534L : 0L, (long)geteuid());
    ck_assert_pstr_eq(tc_error(), expected);

    ck_assert_int_eq(chown(e.cache, geteuid(), getegid()), 0);
    snprintf(link, sizeof link, "%s/link", e.dir);
    ck_assert_int_eq(symlink(e.cache, link), 0);
    e.options.build_dir = link;
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("open", INLINE_TWICE, 1, INLINE_TWICE_FN, &e.options));
    snprintf(expected, sizeof expected, "Error building extension 'open': refusing the "
             "directory %s: it is a symbolic link", link);
    ck_assert_pstr_eq(tc_error(), expected);
    ck_assert_int_eq(inline_builds(&e), 0);
    tc_clear_error();
    inline_teardown(&e);
}
END_TEST

/* The extension's own directory is checked as the root is. */
START_TEST(test_inline_insecure_extension_directory)
{
    struct inline_env e;
    char why[INLINE_PATH], dir[TC_PATH_MAX], expected[INLINE_PATH];
    DIR *d;
    struct dirent *entry;

    inline_setup(&e, "0");
    ck_assert_int_eq(inline_load_in_child(&e, "opendir", INLINE_TWICE, why), 'c');
    d = opendir(e.cache);
    ck_assert_ptr_nonnull(d);
    while ((entry = readdir(d)) != NULL)
        if (strncmp(entry->d_name, "opendir-", 8) == 0)
            snprintf(dir, sizeof dir, "%s/%s", e.cache, entry->d_name);
    closedir(d);
    ck_assert_int_eq(chmod(dir, 0770), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "opendir", INLINE_TWICE, why), 'e');
    snprintf(expected, sizeof expected, "Error building extension 'opendir': refusing the "
             "directory %s: it is writable by group or others (mode 0770)", dir);
    ck_assert_str_eq(why, expected);
    inline_teardown(&e);
}
END_TEST

/* Damaged objects are built again: truncated, one byte changed, the
   digest gone. Then a load from the cache. */
START_TEST(test_inline_corrupt_object_rebuilt)
{
    struct inline_env e;
    char why[INLINE_PATH], object[TC_PATH_MAX] = "", digest[INLINE_PATH];
    DIR *d;
    struct dirent *entry;
    struct stat st;
    int fd;
    unsigned char byte;

    inline_setup(&e, "0");
    ck_assert_int_eq(inline_load_in_child(&e, "fragile", INLINE_TWICE, why), 'c');
    d = opendir(e.cache);
    ck_assert_ptr_nonnull(d);
    while ((entry = readdir(d)) != NULL)
        if (strncmp(entry->d_name, "fragile-", 8) == 0)
            snprintf(object, sizeof object, "%s/%s/fragile.so", e.cache, entry->d_name);
    closedir(d);
    snprintf(digest, sizeof digest, "%s.sha256", object);

    ck_assert_int_eq(stat(object, &st), 0);
    ck_assert_int_eq(truncate(object, st.st_size / 2), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "fragile", INLINE_TWICE, why), 'c');
    ck_assert_int_eq(inline_builds(&e), 2);

    ck_assert_int_eq(stat(object, &st), 0);
    fd = open(object, O_RDWR);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(pread(fd, &byte, 1, st.st_size / 2), 1);
    byte ^= 0x01;
    ck_assert_int_eq(pwrite(fd, &byte, 1, st.st_size / 2), 1);
    close(fd);
    ck_assert_int_eq(inline_load_in_child(&e, "fragile", INLINE_TWICE, why), 'c');
    ck_assert_int_eq(inline_builds(&e), 3);

    ck_assert_int_eq(unlink(digest), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "fragile", INLINE_TWICE, why), 'c');
    ck_assert_int_eq(inline_builds(&e), 4);

    ck_assert_int_eq(inline_load_in_child(&e, "fragile", INLINE_TWICE, why), 'h');
    ck_assert_int_eq(inline_builds(&e), 4);
    inline_teardown(&e);
}
END_TEST

/* A cached object that is a symbolic link, or that others can write, is
   refused, not loaded and not built over. */
START_TEST(test_inline_untrusted_object_refused)
{
    struct inline_env e;
    char why[INLINE_PATH], object[TC_PATH_MAX] = "", real[TC_PATH_MAX], expected[INLINE_PATH];
    DIR *d;
    struct dirent *entry;

    inline_setup(&e, "0");
    ck_assert_int_eq(inline_load_in_child(&e, "linked", INLINE_TWICE, why), 'c');
    d = opendir(e.cache);
    ck_assert_ptr_nonnull(d);
    while ((entry = readdir(d)) != NULL)
        if (strncmp(entry->d_name, "linked-", 7) == 0)
            snprintf(object, sizeof object, "%s/%s/linked.so", e.cache, entry->d_name);
    closedir(d);
    snprintf(real, sizeof real, "%s/elsewhere.so", e.dir);
    ck_assert_int_eq(rename(object, real), 0);
    ck_assert_int_eq(symlink(real, object), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "linked", INLINE_TWICE, why), 'e');
    snprintf(expected, sizeof expected, "Error building extension 'linked': refusing the "
             "file %s: it is a symbolic link", object);
    ck_assert_str_eq(why, expected);

    ck_assert_int_eq(unlink(object), 0);
    ck_assert_int_eq(rename(real, object), 0);
    ck_assert_int_eq(chmod(object, 0666), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "linked", INLINE_TWICE, why), 'e');
    snprintf(expected, sizeof expected, "Error building extension 'linked': refusing the "
             "file %s: it is writable by group or others (mode 0666)", object);
    ck_assert_str_eq(why, expected);
    ck_assert_int_eq(inline_builds(&e), 1);

    ck_assert_int_eq(chmod(object, 0755), 0);
    ck_assert_int_eq(inline_load_in_child(&e, "linked", INLINE_TWICE, why), 'h');
    inline_teardown(&e);
}
END_TEST

/* A function with a backward in the source: the operator gets autograd
   (chapter 8's tc_op_impl_autograd), a node named "SqBackward0", the
   gradient 2x, and gradcheck passes (torch 1.13 with a custom
   autograd.Function computes the same: x.grad = 2x). */
static const char INLINE_SQ[] =
    "#include <tc/tc.h>\n"
    "tc_tensor *sq(const tc_tensor *x) { return tc_mul(x, x); }\n"
    "int sq_backward(const tc_tensor *grad, const tc_value *args,\n"
    "                const tc_tensor *result, tc_tensor **grads)\n"
    "{\n"
    "    tc_tensor *two_x = tc_add(args[0].as.tensor, args[0].as.tensor);\n"
    "    (void)result;\n"
    "    grads[0] = tc_mul(grad, two_x);\n"
    "    tc_release(two_x);\n"
    "    return grads[0] == NULL ? -1 : 0;\n"
    "}\n";

static tc_tensor *inline_call_sq(tc_tensor *const *inputs, void *op)
{
    return tc_op_call(op, 1, (tc_value[]){ tc_value_tensor(inputs[0]) });
}

START_TEST(test_inline_backward)
{
    static const char *const functions[] = { "sq(Tensor x) -> Tensor" };
    struct inline_env e;
    const tc_extension *ext;
    tc_tensor *x = testing_tensor(TC_SHAPE(3), TC_FLOAT64, (const double[]){ 1, 2, 3 });
    tc_tensor *y, *loss;
    void *op;

    inline_setup(&e, "0");
    ext = tc_load_inline("sqext", INLINE_SQ, 1, functions, &e.options);
    ck_assert_msg(ext != NULL, "%s", tc_error());
    op = ext->ops[0];
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    y = inline_call_sq(&x, op);
    ck_assert_msg(y != NULL, "%s", tc_error());
    testing_expect_values(__LINE__, "sq(x)", y, 3, (const double[]){ 1, 4, 9 },
                          TESTING_TOL(0, 0));
    ck_assert_ptr_nonnull(ag_grad_fn(y));
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "SqBackward0");
    loss = ag_sum(y);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    testing_expect_values(__LINE__, "x.grad", ag_grad(x), 3, (const double[]){ 2, 4, 6 },
                          TESTING_TOL(0, 0));
    ck_assert_msg(ag_gradcheck(inline_call_sq, op, 1, &x, NULL) == 0, "%s", tc_error());
    tc_release(loss);
    tc_release(y);
    tc_release(x);
    inline_teardown(&e);
}
END_TEST

/* The arguments' checked runtime errors. */
START_TEST(test_inline_bad_arguments)
{
    struct inline_env e;
    const char *const none[] = { NULL };

    inline_setup(&e, "0");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("two words", INLINE_TWICE, 1, INLINE_TWICE_FN,
                                      &e.options));
    ck_assert_pstr_eq(tc_error(), "Error building extension 'two words': the name must be a "
                      "C identifier of at most 48 characters");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("x", INLINE_TWICE, TC_MAX_FUNCTIONS + 1, INLINE_TWICE_FN,
                                      &e.options));
    ck_assert_pstr_eq(tc_error(), "Error building extension 'x': expected 0 to 16 "
                      "functions, got 17");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("x", NULL, 0, NULL, &e.options));
    ck_assert_pstr_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
    ck_assert_ptr_null(tc_load_inline("x", INLINE_TWICE, 1, none, &e.options));
    ck_assert_pstr_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    ck_assert_int_eq(inline_builds(&e), 0);
    tc_clear_error();
    inline_teardown(&e);
}
END_TEST

static void ch08_add_inline(Suite *s)
{
    TCase *sha = tcase_create("sha256");
    TCase *load = tcase_create("load_inline");

    tcase_add_test(sha, test_sha256_fips_vectors);
    tcase_add_test(sha, test_sha256_padding_edges);
    tcase_add_test(sha, test_sha256_in_pieces);
    suite_add_tcase(s, sha);
    tcase_set_timeout(load, 60);
    tcase_add_test(load, test_inline_cold_build);
    tcase_add_test(load, test_inline_cache_hit);
    tcase_add_test(load, test_inline_changed_source);
    tcase_add_test(load, test_inline_compile_error);
    tcase_add_test(load, test_inline_missing_function);
    tcase_add_test(load, test_inline_missing_compiler);
    tcase_add_test(load, test_inline_two_processes);
    tcase_add_test(load, test_inline_insecure_directory);
    tcase_add_test(load, test_inline_insecure_extension_directory);
    tcase_add_test(load, test_inline_corrupt_object_rebuilt);
    tcase_add_test(load, test_inline_untrusted_object_refused);
    tcase_add_test(load, test_inline_backward);
    tcase_add_test(load, test_inline_bad_arguments);
    suite_add_tcase(s, load);
}
