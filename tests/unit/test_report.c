/*
** test_report.c — `navbot test --report DIR` on two scenarios made in a
** temporary folder, one passing (a copy of travel_ladder with its golden
** hash written there) and one failing on purpose: index.html has a row
** each with the result, trace hash, what failed and the replay command;
** every link and picture it names is a file beside it, every PNG decodes,
** the failure picture has its red mark and the thumbnail its small size.
** Then headless Chromium opens the page from disk and its screenshot is
** checked by pixels: the table's header and result cells are drawn, and
** so is the failure picture (many colours, mostly dark, inside its frame,
** not a broken-image icon on white). The reports and the screenshot stay
** in build/pictures/ to be looked at.
*/
#define _DEFAULT_SOURCE /* realpath */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>

#include "render_support.h"
#include "core/fileio.h"

#define FAILING                                                                                                       \
    "-- Fails on purpose: nobody climbs to the loft in half a second.\n"                                              \
    "local S = require \"scenario\"\n"                                                                                \
    "return S.scenario {\n"                                                                                           \
    "  description = \"fails on purpose\",\n"                                                                         \
    "  map = \"maps/gauntlet.lua\",\n"                                                                                \
    "  time_limit = 10,\n"                                                                                            \
    "  bots = { S.bot { name = \"runner\", brain = \"runner\", at = \"spawn_yard\", goals = { \"goal_loft\" } } },\n" \
    "  expect = { S.arrives(\"runner\", { within = 0.5 }) },\n"                                                       \
    "}\n"

/* {======= helpers ======= */

static char *read_all(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    NavError err;
    nav_error_clear(&err);
    cr_assert(NAV_SUCCEEDED(fileio_read(path, 16u << 20, &text, &len, &err)), "%s", err.message);
    return text;
}

static void write_all(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

static bool near(NavColor a, NavColor b, int tol)
{
    return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

static int count_near(const NavImage *img, NavColor c, int tol)
{
    int n = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) n += near(pixel(img, x, y), c, tol);
    return n;
}

/* The trace hash the golden file got: "... golden written: PATH HASH after". */
static void golden_hash(const char *out, char hash[17])
{
    const char *p = strstr(out, ".hash ");
    cr_assert_not_null(p, "no golden hash in: %s", out);
    snprintf(hash, 17, "%.16s", p + 6);
}

/* Two scenarios in a new temporary folder, the passing one's golden hash
** written; then `navbot test --report dir` on both. Returns the HTML. */
static char *make_report(const char *dir, char pass_hash[17])
{
    char tmp[] = "/tmp/navbot-report-XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    char pass[PATH_MAX], fail[PATH_MAX], keep[PATH_MAX], index[PATH_MAX];
    snprintf(pass, sizeof pass, "%s/climbs_to_the_loft.lua", tmp);
    snprintf(fail, sizeof fail, "%s/fails_on_purpose.lua", tmp);
    snprintf(keep, sizeof keep, "%s/keep", tmp);
    char *ladder = read_all("tests/scenarios/travel_ladder.lua");
    write_all(pass, ladder);
    nav_free(ladder);
    write_all(fail, FAILING);
    Run g = NAVBOT("test", "--update-golden", "--keep", keep, pass);
    cr_assert_eq(g.status, 0, "%s%s", g.out, g.err);
    golden_hash(g.out, pass_hash);
    Run r = NAVBOT("test", "--report", dir, "--keep", keep, "--jobs", "2", pass, fail);
    cr_assert_eq(r.status, CLI_BAD_INPUT, "one scenario fails: %s%s", r.out, r.err);
    cr_assert(strstr(r.out, "1 passed, 1 failed\n"), "%s", r.out);
    cr_assert(strstr(r.err, "report written to"), "%s", r.err);
    run_free(&g);
    run_free(&r);
    snprintf(index, sizeof index, "%s/index.html", dir);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
    return read_all(index);
}

/* Every href="..." and src="..." of html: relative, and a file in dir. */
static int check_links(const char *html, const char *dir)
{
    int n = 0;
    static const char *const attrs[] = { "href=\"", "src=\"" };
    for (int a = 0; a < 2; a++)
        for (const char *p = strstr(html, attrs[a]); p; p = strstr(p + 1, attrs[a])) {
            const char *v = p + strlen(attrs[a]), *end = strchr(v, '"');
            cr_assert_not_null(end);
            char link[512], path[1024];
            snprintf(link, sizeof link, "%.*s", (int)(end - v), v);
            cr_assert(link[0] != '/' && !strstr(link, "://") && !strstr(link, ".."), "%s is not relative", link);
            snprintf(path, sizeof path, "%s/%s", dir, link);
            struct stat st;
            cr_assert(stat(path, &st) == 0 && S_ISREG(st.st_mode), "%s links to %s, which is no file", dir, link);
            if (strstr(link, ".png")) image_destroy(load_png(path));
            n++;
        }
    return n;
}

/* }======= */

Test(report, rows_links_and_pictures)
{
    const char *dir = "build/pictures/report";
    mkdir("build", 0777), mkdir("build/pictures", 0777);
    char hash[17];
    char *html = make_report(dir, hash);

    cr_assert(strstr(html, "<!DOCTYPE html>") && strstr(html, "</html>"), "a whole HTML page");
    cr_assert(!strstr(html, "<script"), "no scripts");
    cr_assert_eq(count_of(html, "<tr id="), 2, "a row per scenario");
    cr_assert_eq(count_of(html, "<td class=\"fail\">FAIL</td>"), 1);
    cr_assert_eq(count_of(html, "<td class=\"ok\">ok</td>"), 1);
    cr_assert(strstr(html, "1 passed, 1 failed"));
    /* The failure first, with its message, tick, expectation and replay command. */
    const char *fail_row = strstr(html, "<tr id=\"fails_on_purpose\">");
    const char *pass_row = strstr(html, "<tr id=\"climbs_to_the_loft\">");
    cr_assert(fail_row && pass_row && fail_row < pass_row, "the failing row comes first");
    cr_assert(strstr(fail_row, "not arrived after") < pass_row, "the failure's message is in its row");
    cr_assert(strstr(fail_row, "at tick 16") < pass_row, "the tick it failed at");
    cr_assert(strstr(fail_row, "arrives(runner, within 0.5 s)") < pass_row, "the expectation");
    const char *replay = strstr(fail_row, "navbot replay ");
    cr_assert(replay && replay < pass_row && strstr(replay, "fails_on_purpose.trace --tick 16"), "the replay command");
    /* The passing row: its trace hash (the golden one), a thumbnail, a rerun command. */
    cr_assert(strstr(pass_row, hash), "the passing run's trace hash %s", hash);
    cr_assert(strstr(pass_row, "navbot test /tmp/navbot-report-"), "the command that reruns it");
    cr_assert(strstr(fail_row, "src=\"fails_on_purpose.png\""));
    cr_assert(strstr(pass_row, "src=\"climbs_to_the_loft.thumb.png\""));
    for (const char *p = fail_row; (p = strstr(p, "<code>")) && p < pass_row; p++) {
        const char *hex = strstr(p, "</code>");
        if (hex - p - 6 != 16) continue;
        for (int k = 0; k < 16; k++) cr_assert(isxdigit((unsigned char)p[6 + k]), "a hash of 16 hex digits");
    }

    cr_assert_eq(check_links(html, dir), 4, "two pictures, each linked and shown");
    NavImage *fail = load_png("build/pictures/report/fails_on_purpose.png");
    cr_assert_eq(fail->width, 1280);
    cr_assert(count_near(fail, RENDER_FAILURE_RED, 0) > 200, "the place and tick are marked in red");
    NavImage *thumb = load_png("build/pictures/report/climbs_to_the_loft.thumb.png");
    cr_assert_eq(thumb->width, 320, "a thumbnail");
    cr_assert(distinct_colors(thumb) > 50, "of the map, not a blank");
    image_destroy(fail);
    image_destroy(thumb);
    nav_free(html);
}

Test(report, chromium_draws_the_table_and_the_failure_picture)
{
    if (system("command -v chromium >/dev/null 2>&1") != 0)
        cr_skip_test("chromium is not installed (.ci/setup installs it)");
    const char *dir = "build/pictures/report_browser";
    mkdir("build", 0777), mkdir("build/pictures", 0777);
    char hash[17];
    char *html = make_report(dir, hash);
    nav_free(html);
    char abs_dir[PATH_MAX], profile[] = "/tmp/navbot-chromium-XXXXXX", cmd[3 * PATH_MAX];
    cr_assert_not_null(realpath(dir, abs_dir));
    cr_assert_not_null(mkdtemp(profile));
    const char *shot = "build/pictures/report_screenshot.png";
    remove(shot);
    snprintf(cmd, sizeof cmd,
             "timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-color-profile=srgb "
             "--user-data-dir=%s --window-size=1800,1100 --screenshot=%s file://%s/index.html >/dev/null 2>&1; "
             "rm -rf '%s'",
             profile, shot, abs_dir, profile);
    cr_assert_eq(system(cmd), 0, "chromium ran: %s", cmd);
    NavImage *img = load_png(shot);
    /* The table: its header row and the two result cells. */
    cr_assert(count_near(img, nav_rgba(0x28, 0x38, 0x5a, 255), 2) > 5000, "no table header drawn");
    cr_assert(count_near(img, nav_rgba(0xd0, 0x24, 0x3c, 255), 2) > 800, "no FAIL cell drawn");
    cr_assert(count_near(img, nav_rgba(0x2e, 0x9d, 0x4f, 255), 2) > 800, "no ok cell drawn");
    /* The failure picture's frame, then what is inside it. */
    NavColor frame = nav_rgba(0xe6, 0x00, 0x7e, 255);
    int x0 = img->width, y0 = img->height, x1 = -1, y1 = -1;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            if (near(pixel(img, x, y), frame, 2)) {
                x0 = NAV_MIN(x0, x), y0 = NAV_MIN(y0, y), x1 = NAV_MAX(x1, x), y1 = NAV_MAX(y1, y);
            }
    cr_assert(x1 > x0, "no frame round the failure picture");
    cr_assert(abs((x1 - x0 + 1) - 488) <= 4, "the framed picture is 480 px wide and framed: %d", x1 - x0 + 1);
    int w = x1 - x0 - 7, h = y1 - y0 - 7;
    cr_assert(h > 300, "the picture has its height (%d px), not an icon's", h);
    NavImage *inside = new_image(w, h);
    int dark = 0, white = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            NavColor c = pixel(img, x0 + 4 + x, y0 + 4 + y);
            image_set_pixel(inside, x, y, c);
            dark += c.r + c.g + c.b < 200;
            white += c.r > 240 && c.g > 240 && c.b > 240;
        }
    cr_assert(distinct_colors(inside) > 100, "the failure picture is drawn (a broken image has a few colours)");
    cr_assert(dark > w * h / 5, "mostly the map's dark surround: %d of %d dark", dark, w * h);
    cr_assert(white < w * h / 10, "not an icon on white: %d of %d white", white, w * h);
    image_destroy(inside);
    image_destroy(img);
}
