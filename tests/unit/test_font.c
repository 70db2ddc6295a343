/*
** test_font.c — the shipped bitmap font (every printable character inked
** and distinct from the others), text drawing against the file's own
** rows, scale, clipping, line breaks, the outline, and bad font files
** reported with their file, line and problem.
*/
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio.h"
#include "core/image.h"
#include "core/random.h"
#include "render/font.h"
#include "test_support.h"

#define FONT_PATH "assets/font-6x10.txt"
#define FW 6
#define FH 10

static const NavColor WHITE = { 255, 255, 255, 255 };

/* {======= helpers ======= */

/* The suite's folder, removed by fini even when an assertion ends a test
** early. */
static char tmp_dir[64];
static char tmp_file[128];

static void remove_tmp(void)
{
    if (tmp_file[0]) unlink(tmp_file);
    if (tmp_dir[0]) rmdir(tmp_dir);
    tmp_file[0] = tmp_dir[0] = '\0';
}

TestSuite(font, .fini = remove_tmp);

static NavFont *load_shipped(void)
{
    NavError err;
    nav_error_clear(&err);
    NavFont *f = font_load(FONT_PATH, &err);
    char buf[1024];
    cr_assert_not_null(f, "%s", nav_error_format(&err, buf, sizeof buf));
    return f;
}

/* The rows of glyph `name` read straight from the file, without the
** module's parser: the line "glyph NAME" and the FH lines after it. */
static void file_glyph(const char *name, char rows[FH][FW + 1])
{
    FILE *fp = fopen(FONT_PATH, "r");
    cr_assert_not_null(fp, FONT_PATH);
    char want[32], line[256];
    snprintf(want, sizeof want, "glyph %s\n", name);
    bool found = false;
    while (!found && fgets(line, sizeof line, fp)) found = strcmp(line, want) == 0;
    cr_assert(found, "no line 'glyph %s' in %s", name, FONT_PATH);
    for (int r = 0; r < FH; r++) {
        cr_assert_not_null(fgets(line, sizeof line, fp), "glyph %s ends early", name);
        cr_assert_eq(strlen(line), (size_t)FW + 1, "glyph %s row %d: '%s'", name, r, line);
        memcpy(rows[r], line, FW);
        rows[r][FW] = '\0';
    }
    fclose(fp);
}

static NavImage *canvas(int w, int h)
{
    NavError err;
    NavImage *img = image_create(w, h, &err);
    cr_assert_not_null(img, "%s", err.message);
    return img;
}

static bool inked(const NavImage *img, int x, int y)
{
    return img->pixels[((size_t)y * (size_t)img->width + (size_t)x) * 4 + 3] != 0;
}

static int ink_count(const NavImage *img)
{
    int n = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) n += inked(img, x, y);
    return n;
}

/* The ink of one character drawn alone at scale 1, as FW * FH flags. */
static void glyph_mask(const NavFont *f, unsigned char ch, char mask[FW * FH])
{
    NavImage *img = canvas(FW, FH);
    char text[2] = { (char)ch, '\0' };
    font_draw(img, f, 0, 0, text, WHITE, 1);
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) mask[y * FW + x] = inked(img, x, y);
    image_destroy(img);
}

/* }======= */

/* {======= the shipped font ======= */

Test(font, shipped_font_loads_with_its_cell_size)
{
    NavFont *f = load_shipped();
    cr_assert_eq(font_glyph_width(f, 1), FW);
    cr_assert_eq(font_line_height(f, 1), FH);
    cr_assert_eq(font_glyph_width(f, 3), 3 * FW);
    cr_assert_eq(font_line_height(f, 2), 2 * FH);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, every_printable_character_has_ink_and_its_own_bitmap)
{
    NavFont *f = load_shipped();
    static char masks[128][FW * FH];
    for (int c = 32; c <= 127; c++) glyph_mask(f, (unsigned char)c, masks[c]);
    char none[FW * FH] = { 0 };
    cr_assert(memcmp(masks[' '], none, sizeof none) == 0, "space has ink");
    for (int c = 33; c <= 126; c++) {
        cr_assert(memcmp(masks[c], none, sizeof none) != 0, "'%c' (%d) has no ink", c, c);
        /* 127 is not in the font: the hollow box, which a glyph must not
        ** look like either. */
        cr_assert(memcmp(masks[c], masks[127], sizeof none) != 0, "'%c' looks like the missing-glyph box", c);
        for (int d = 33; d < c; d++)
            cr_assert(memcmp(masks[c], masks[d], sizeof none) != 0, "'%c' and '%c' have the same bitmap", c, d);
    }
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, letters_keep_the_gap_column_and_row)
{
    /* The layout the file promises: last column and row 0 blank, so text
    ** never touches its neighbours. */
    NavFont *f = load_shipped();
    for (int c = 32; c <= 126; c++) {
        char m[FW * FH];
        glyph_mask(f, (unsigned char)c, m);
        for (int y = 0; y < FH; y++) cr_assert_eq(m[y * FW + FW - 1], 0, "'%c' inks its gap column", c);
        for (int x = 0; x < FW; x++) cr_assert_eq(m[x], 0, "'%c' inks row 0", c);
    }
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= drawing ======= */

Test(font, drawing_A_sets_exactly_the_cells_of_its_rows)
{
    char rows[FH][FW + 1];
    file_glyph("A", rows);
    NavFont *f = load_shipped();
    NavImage *img = canvas(20, 20);
    int ox = 3, oy = 2;
    cr_assert_eq(font_draw(img, f, ox, oy, "A", WHITE, 1), FW);
    int expected = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            bool in = x >= ox && x < ox + FW && y >= oy && y < oy + FH;
            bool want = in && rows[y - oy][x - ox] == '#';
            expected += want;
            cr_assert_eq(inked(img, x, y), want, "pixel (%d, %d)", x, y);
        }
    cr_assert_gt(expected, 10);
    /* Opaque white overwrote the transparent canvas. */
    const uint8_t *p = &img->pixels[((size_t)(oy + 4) * 20 + (size_t)ox) * 4];
    cr_assert(p[0] == 255 && p[1] == 255 && p[2] == 255 && p[3] == 255);
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, scale_2_draws_each_font_pixel_as_a_2x2_block)
{
    char rows[FH][FW + 1];
    file_glyph("A", rows);
    NavFont *f = load_shipped();
    NavImage *one = canvas(FW, FH), *two = canvas(2 * FW, 2 * FH);
    cr_assert_eq(font_draw(one, f, 0, 0, "A", WHITE, 1), FW);
    cr_assert_eq(font_draw(two, f, 0, 0, "A", WHITE, 2), 2 * FW);
    cr_assert_eq(ink_count(two), 4 * ink_count(one));
    for (int y = 0; y < 2 * FH; y++)
        for (int x = 0; x < 2 * FW; x++)
            cr_assert_eq(inked(two, x, y), rows[y / 2][x / 2] == '#', "pixel (%d, %d)", x, y);
    image_destroy(one);
    image_destroy(two);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, text_is_clipped_at_every_edge)
{
    char rows[FH][FW + 1];
    file_glyph("W", rows);
    NavFont *f = load_shipped();
    /* Half a W hanging off each corner of a small canvas: exactly the
    ** glyph's cells inside are drawn, nothing outside (ASan watches). */
    const int corners[4][2] = { { -3, -4 }, { 5, -4 }, { -3, 3 }, { 5, 3 } };
    for (int i = 0; i < 4; i++) {
        NavImage *img = canvas(8, 8);
        int ox = corners[i][0], oy = corners[i][1];
        font_draw(img, f, ox, oy, "W", WHITE, 1);
        int expected = 0;
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++)
                expected += rows[y][x] == '#' && ox + x >= 0 && ox + x < 8 && oy + y >= 0 && oy + y < 8;
        cr_assert_gt(expected, 0);
        cr_assert_eq(ink_count(img), expected, "W at (%d, %d)", ox, oy);
        image_destroy(img);
    }
    /* Far away and at the ends of int: nothing drawn, no overflow (UBSan),
    ** and the width is still measured. */
    NavImage *img = canvas(8, 8);
    const int far[4][2] = { { INT_MAX - 2, 0 }, { INT_MIN, 0 }, { 0, INT_MAX }, { INT_MIN + 1, INT_MIN } };
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(font_draw(img, f, far[i][0], far[i][1], "WWW\nW", WHITE, NAV_FONT_MAX_SCALE),
                     3 * FW * NAV_FONT_MAX_SCALE);
        font_draw_outlined(img, f, far[i][0], far[i][1], "WWW\nW", WHITE, WHITE, 5);
    }
    cr_assert_eq(ink_count(img), 0);
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, widths_and_heights)
{
    NavFont *f = load_shipped();
    int gw = font_glyph_width(f, 1);
    cr_assert_eq(font_text_width(f, "abc", 1), 3 * gw);
    cr_assert_eq(font_text_width(f, "abc", 3), 9 * gw);
    cr_assert_eq(font_text_width(f, "", 1), 0);
    cr_assert_eq(font_text_width(f, "ab\nabcd\nx", 1), 4 * gw);
    cr_assert_eq(font_text_width(f, "\xc3\xa9", 1), 2 * gw, "a byte is a cell");
    cr_assert_eq(font_text_height(f, "abc", 2), 2 * FH);
    cr_assert_eq(font_text_height(f, "a\nb\n", 1), 3 * FH);
    /* Scales out of range are clamped, not trusted. */
    cr_assert_eq(font_glyph_width(f, 0), gw);
    cr_assert_eq(font_glyph_width(f, -5), gw);
    cr_assert_eq(font_glyph_width(f, 1000), gw * NAV_FONT_MAX_SCALE);
    /* No font: nothing to measure or draw, no crash. */
    cr_assert_eq(font_text_width(NULL, "abc", 1), 0);
    cr_assert_eq(font_line_height(NULL, 1), 0);
    cr_assert_eq(font_draw(NULL, NULL, 0, 0, "abc", WHITE, 1), 0);
    cr_assert_eq(font_draw(NULL, f, 0, 0, "abc", WHITE, 1), 3 * gw, "no canvas measures");
    font_destroy(NULL);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, newline_moves_down_a_line_and_back_to_x)
{
    NavFont *f = load_shipped();
    int lh = font_line_height(f, 2), gw = font_glyph_width(f, 2);
    NavImage *img = canvas(60, 60), *ref = canvas(60, 60);
    cr_assert_eq(font_draw(img, f, 4, 3, "gA\nQ", WHITE, 2), 2 * gw);
    font_draw(ref, f, 4, 3, "gA", WHITE, 2);
    font_draw(ref, f, 4, 3 + lh, "Q", WHITE, 2);
    cr_assert(memcmp(img->pixels, ref->pixels, 60 * 60 * 4) == 0);
    image_destroy(img);
    image_destroy(ref);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, characters_outside_the_font_draw_a_hollow_box)
{
    NavFont *f = load_shipped();
    char box[FW * FH], m[FW * FH];
    glyph_mask(f, 127, box);
    /* A closed rectangle with an empty inside. */
    int x0 = FW, x1 = -1, y0 = FH, y1 = -1;
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++)
            if (box[y * FW + x]) {
                x0 = NAV_MIN(x0, x), x1 = NAV_MAX(x1, x);
                y0 = NAV_MIN(y0, y), y1 = NAV_MAX(y1, y);
            }
    cr_assert(x1 - x0 >= 2 && y1 - y0 >= 2, "box %d..%d x %d..%d", x0, x1, y0, y1);
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            bool inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
            bool edge = inside && (x == x0 || x == x1 || y == y0 || y == y1);
            cr_assert_eq(box[y * FW + x], edge, "box pixel (%d, %d)", x, y);
        }
    const unsigned char others[] = { 1, '\t', '\r', 0x80, 0xc3, 0xff };
    for (size_t i = 0; i < sizeof others; i++) {
        glyph_mask(f, others[i], m);
        cr_assert(memcmp(m, box, sizeof box) == 0, "byte 0x%02x", others[i]);
    }
    font_destroy(f);

    /* A glyph the file leaves out is the box too. */
    const char *text = "navbot-font 1 4 5 4\nglyph A\n.#..\n#.#.\n###.\n#.#.\n....\n";
    NavError err;
    f = font_parse(text, strlen(text), "mini", &err);
    cr_assert_not_null(f, "%s", err.message);
    NavImage *a = canvas(4, 5), *b = canvas(4, 5);
    font_draw(a, f, 0, 0, "B", WHITE, 1);
    font_draw(b, f, 0, 0, "\x01", WHITE, 1);
    cr_assert(memcmp(a->pixels, b->pixels, 4 * 5 * 4) == 0);
    cr_assert_gt(ink_count(a), 0);
    image_destroy(a);
    image_destroy(b);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, alpha_blends_through_the_image)
{
    NavFont *f = load_shipped();
    NavImage *img = canvas(FW, FH);
    image_fill(img, nav_rgba(0, 0, 0, 255));
    font_draw(img, f, 0, 0, "H", nav_rgba(255, 255, 255, 128), 1);
    const uint8_t *p = &img->pixels[((size_t)4 * FW + 0) * 4]; /* H's bar, row 4 */
    cr_assert(p[0] > 100 && p[0] < 160 && p[3] == 255, "blended %d %d", p[0], p[3]);
    font_draw(img, f, 0, 0, "H", nav_rgba(255, 0, 0, 0), 1);
    cr_assert(p[0] > 100 && p[0] < 160 && p[1] == p[0], "alpha 0 draws nothing");
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, outline_rings_the_ink_and_blends_each_pixel_once)
{
    NavFont *f = load_shipped();
    int w = 40, h = 30;
    NavImage *plain = canvas(w, h), *img = canvas(w, h);
    const char *text = "g%\nj_";
    font_draw(plain, f, 5, 4, text, WHITE, 1);
    NavColor ring = nav_rgba(0, 0, 255, 128);
    cr_assert_eq(font_draw_outlined(img, f, 5, 4, text, WHITE, ring, 1), 2 * FW);
    int rings = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool ink = inked(plain, x, y), near = false;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    near = near || (nx >= 0 && ny >= 0 && nx < w && ny < h && inked(plain, nx, ny));
                }
            const uint8_t *p = &img->pixels[((size_t)y * (size_t)w + (size_t)x) * 4];
            if (ink) {
                cr_assert(p[0] == 255 && p[2] == 255 && p[3] == 255, "ink at (%d, %d)", x, y);
            } else if (near) {
                /* Blended once over transparent: exactly the ring colour,
                ** also where the lines' outlines meet (g's tail over j). */
                cr_assert(p[0] == 0 && p[2] == 255 && p[3] == 128, "ring at (%d, %d): a %d", x, y, p[3]);
                rings++;
            } else {
                cr_assert_eq(p[3], 0, "nothing at (%d, %d)", x, y);
            }
        }
    cr_assert_gt(rings, 20);
    image_destroy(plain);
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, outline_is_clipped_at_the_edges)
{
    NavFont *f = load_shipped();
    NavImage *img = canvas(7, 7);
    font_draw_outlined(img, f, -2, -3, "M@\nW", WHITE, nav_rgba(0, 0, 0, 255), 3);
    cr_assert_gt(ink_count(img), 0);
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= bad font files ======= */

/* Write text to <tmp>/<name> and return its path. */
static const char *write_tmp(const char *name, const char *text)
{
    if (!tmp_dir[0]) {
        snprintf(tmp_dir, sizeof tmp_dir, "/tmp/navbot-font-XXXXXX");
        cr_assert_not_null(mkdtemp(tmp_dir), "mkdtemp");
    }
    if (tmp_file[0]) unlink(tmp_file);
    snprintf(tmp_file, sizeof tmp_file, "%s/%s", tmp_dir, name);
    FILE *fp = fopen(tmp_file, "wb");
    cr_assert_not_null(fp, "%s", tmp_file);
    fputs(text, fp);
    fclose(fp);
    return tmp_file;
}

/* Loading text fails at `line` with a message containing `what`; the
** formatted error names the file. */
static void expect_error(const char *name, const char *text, int line, const char *what)
{
    const char *path = write_tmp(name, text);
    NavError err;
    nav_error_clear(&err);
    NavFont *f = font_load(path, &err);
    char buf[1024];
    nav_error_format(&err, buf, sizeof buf);
    cr_assert_null(f, "%s loaded", name);
    cr_assert(NAV_FAILED(err.status) && (err.status & NAV_E_FORMAT), "%s: status %s", name,
              nav_status_name(err.status));
    cr_assert_eq(err.line, line, "%s: line %d, expected %d (%s)", name, err.line, line, buf);
    cr_assert_not_null(strstr(buf, path), "%s: '%s' does not name the file", name, buf);
    cr_assert_not_null(strstr(buf, what), "%s: '%s' does not say '%s'", name, buf, what);
}

#define HEADER "-- a test font\nnavbot-font 1 4 5 4\n"
#define ROWS_A ".#..\n#.#.\n###.\n#.#.\n....\n"

Test(font, good_small_font_loads)
{
    const char *path = write_tmp("good.txt", HEADER "\nglyph A\n" ROWS_A "-- between glyphs\n\nglyph 66\r\n"
                                 "##..\r\n#.#.  \r\n##..\r\n#.#.\r\n##..\r\n glyph space\n....\n....\n....\n"
                                 "....\n....\nglyph #\n#.#.\n####\n#.#.\n####\n#.#.\n");
    NavError err;
    NavFont *f = font_load(path, &err);
    cr_assert_not_null(f, "%s", err.message);
    cr_assert_eq(font_glyph_width(f, 1), 4);
    cr_assert_eq(font_line_height(f, 1), 5);
    NavImage *img = canvas(4, 5);
    font_draw(img, f, 0, 0, "B", WHITE, 1);
    cr_assert_eq(ink_count(img), 10, "glyph 66 is B");
    image_destroy(img);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, bad_files_name_the_file_the_line_and_the_problem)
{
    expect_error("header.txt", "-- comment\n\nnavbot-fnt 1 4 5 4\n", 3, "bad header");
    expect_error("noheader.txt", "glyph A\n" ROWS_A, 1, "bad header");
    expect_error("empty.txt", "", 1, "bad header");
    expect_error("version.txt", "navbot-font 2 4 5 4\n", 1, "version");
    expect_error("wide.txt", "navbot-font 1 40 5 4\n", 1, "width '40'");
    expect_error("baseline.txt", "navbot-font 1 4 5 6\n", 1, "baseline '6'");
    expect_error("short.txt", "navbot-font 1 4 5\n", 1, "bad header");
    expect_error("row.txt", HEADER "glyph A\n.#..\n#.#\n###.\n#.#.\n....\n", 5, "row 2 of glyph 'A' is 3 characters wide, expected 4");
    expect_error("longrow.txt", HEADER "glyph A\n.#..\n#.#.\n###..\n#.#.\n....\n", 6, "5 characters wide");
    expect_error("char.txt", HEADER "glyph A\n.#..\n#.#.\n#x#.\n#.#.\n....\n", 6, "bad character 'x'");
    expect_error("blank.txt", HEADER "glyph A\n.#..\n\n#.#.\n", 5, "blank line");
    expect_error("eof.txt", HEADER ROWS_A, 3, "expected 'glyph NAME'");
    expect_error("missing.txt", HEADER "glyph A\n" ROWS_A "\nglyph B\n##..\n#.#.\n", 10, "missing rows: glyph 'B' has 2 of its 5 rows at the end of the file");
    expect_error("cut.txt", HEADER "glyph A\n.#..\n#.#.\nglyph B\n", 6, "missing rows: glyph 'A' (line 3) has 2 of its 5 rows");
    expect_error("extra.txt", HEADER "glyph A\n" ROWS_A "....\n", 9, "extra row");
    expect_error("dup.txt", HEADER "glyph A\n" ROWS_A "glyph 65\n" ROWS_A, 9, "duplicate glyph: 'A' is already defined at line 3");
    expect_error("name.txt", HEADER "glyph AB\n" ROWS_A, 3, "unknown glyph name 'AB'");
    expect_error("code.txt", HEADER "glyph 200\n" ROWS_A, 3, "glyph code 200 is outside");
    expect_error("code2.txt", HEADER "glyph 12345678901234567890\n" ROWS_A, 3, "is outside");
    expect_error("noname.txt", HEADER "glyph\n" ROWS_A, 3, "expected 'glyph NAME' with one name");
    expect_error("word.txt", HEADER "glph A\n" ROWS_A, 3, "expected 'glyph NAME', found 'glph A'");
    NAV_TEST_LEAK_CHECK();
}

Test(font, missing_file_and_folder_are_io_errors_naming_the_path)
{
    NavError err;
    nav_error_clear(&err);
    cr_assert_null(font_load("assets/no-such-font.txt", &err));
    cr_assert(err.status & NAV_E_IO);
    cr_assert_str_eq(err.file, "assets/no-such-font.txt");
    cr_assert_null(font_load("assets", &err));
    cr_assert_str_eq(err.file, "assets");
    NAV_TEST_LEAK_CHECK();
}

/* Every prefix of the shipped file, and random damage to it: each either
** loads or fails with an error on a line of the file, and nothing leaks. */
Test(font, truncated_and_damaged_files_fail_cleanly)
{
    char *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(fileio_read(FONT_PATH, 1u << 20, &data, &len, &err)));
    int lines = 1;
    for (size_t i = 0; i < len; i++) lines += data[i] == '\n';
    for (size_t n = 0; n <= len; n += 3) {
        NavFont *f = font_parse(data, n, "prefix", &err);
        if (f) font_destroy(f);
        else cr_assert(err.line >= 1 && err.line <= lines, "prefix %zu: line %d", n, err.line);
    }
    uint64_t seed = 7;
    static const char junk[] = { 'x', '#', '.', '\n', '\0', ' ', '-', (char)0xff };
    for (int k = 0; k < 2000; k++) {
        size_t at = (size_t)(nav_rand_next(&seed) % len);
        char was = data[at];
        data[at] = junk[nav_rand_next(&seed) % sizeof junk];
        NavFont *f = font_parse(data, len, "damaged", &err);
        if (f) font_destroy(f);
        else cr_assert(err.line >= 1 && err.line <= lines + 1, "damage at %zu: line %d", at, err.line);
        data[at] = was;
    }
    nav_free(data);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= finding the shipped font ======= */

Test(font, default_font_is_found_from_the_repository_root)
{
    unsetenv("NAVBOT_ASSETS");
    NavError err;
    NavFont *f = font_load_default(&err);
    cr_assert_not_null(f, "%s", err.message);
    cr_assert_eq(font_glyph_width(f, 1), FW);
    font_destroy(f);
    NAV_TEST_LEAK_CHECK();
}

Test(font, default_font_follows_NAVBOT_ASSETS_then_the_binary)
{
    write_tmp(NAV_FONT_DEFAULT_FILE, HEADER "glyph A\n" ROWS_A);
    setenv("NAVBOT_ASSETS", tmp_dir, 1);
    NavError err;
    NavFont *f = font_load_default(&err);
    cr_assert_not_null(f, "%s", err.message);
    cr_assert_eq(font_glyph_width(f, 1), 4, "the font in $NAVBOT_ASSETS");
    font_destroy(f);

    /* From another folder with the variable unset: found beside the
    ** binary (bin/<config>/../../assets). */
    unsetenv("NAVBOT_ASSETS");
    char cwd[4096];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(tmp_dir), 0);
    f = font_load_default(&err);
    cr_assert_eq(chdir(cwd), 0);
    cr_assert_not_null(f, "%s", err.message);
    cr_assert_eq(font_glyph_width(f, 1), FW, "the shipped font");
    font_destroy(f);

    /* A broken font where it looks first is an error, not skipped. */
    write_tmp(NAV_FONT_DEFAULT_FILE, "navbot-font 9 4 5 4\n");
    setenv("NAVBOT_ASSETS", tmp_dir, 1);
    cr_assert_null(font_load_default(&err));
    cr_assert_not_null(strstr(err.message, "version"), "%s", err.message);
    cr_assert_not_null(strstr(err.file, tmp_dir));
    unsetenv("NAVBOT_ASSETS");
    NAV_TEST_LEAK_CHECK();
}

/* }======= */
