/*
** test_map_mesh.c — what the voxelized meshes hold: the house's upper
** storey a floor of its own with the right headroom, its stairs and its
** ramp each a walking way up (routes with the other way shut), the
** terrain's slopes over 45 degrees clip and under it ground, the most
** permissive class deciding, Recast's filters (low headroom, ledges),
** and a brute-force check of every floor and ceiling against vertical
** rays through the triangle soup at cell centres.
*/
#include <math.h>
#include <string.h>

#include "area/area.h"
#include "core/alloc.h"
#include "core/fileio.h"
#include "map/map.h"
#include "map/map_mesh_internal.h"
#include "route/route.h"
#include "test_support.h"

static const NavFloor *column_at(const NavWorld *w, float x, float y, int *n)
{
    int cx, cy;
    cr_assert(world_point_cell(w, x, y, &cx, &cy), "(%g, %g) is off the map", (double)x, (double)y);
    return world_column(w, cx, cy, n);
}

static NavWorld *load_text(const char *obj, const char *sidecar)
{
    NavError err;
    nav_error_clear(&err);
    NavMapOptions o = { .mesh_sidecar = sidecar, .mesh_sidecar_len = sidecar ? strlen(sidecar) : 0 };
    NavWorld *w = map_load_buffer(obj, strlen(obj), "t.obj", &o, &err);
    char buf[1024];
    cr_assert_not_null(w, "%s", nav_error_format(&err, buf, sizeof buf));
    return w;
}

/* {======= the house ======= */

Test(map_mesh, upper_storey_is_a_floor_of_its_own_with_its_headroom)
{
    NavWorld *w = test_load_map("maps/house.obj");
    int n;
    /* The upper east room: ground storey under it, roof over it. */
    const NavFloor *f = column_at(w, 14, 5, &n);
    cr_assert_eq(n, 3, "ground, upper storey, roof");
    float want[3][2] = { { 0.0f, 2.8f }, { 3.0f, 5.8f }, { 6.0f, INFINITY } };
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(f[i].contents, NAV_CONTENTS_FLOOR);
        cr_assert_float_eq(f[i].z, want[i][0], 1e-4, "floor %d at %g", i, (double)f[i].z);
        if (isinf(want[i][1])) cr_assert(isinf(f[i].ceiling), "floor %d: open sky", i);
        else cr_assert_float_eq(f[i].ceiling, want[i][1], 1e-4, "floor %d's ceiling at %g", i, (double)f[i].ceiling);
    }
    cr_assert_eq(f[0].layer, 0);
    cr_assert_eq(f[1].layer, 1, "the sidecar's layer 'upper'");
    /* The front door: 2.2 m of headroom under its lintel. */
    f = column_at(w, 9.75, 4.1, &n);
    cr_assert_float_eq(f[0].z, 0.0f, 1e-4);
    cr_assert_float_eq(f[0].ceiling, 2.2f, 1e-4);
    /* Step 4 of the stairs, open to the roof above the stairwell. */
    f = column_at(w, 5.0, 5.0 + 0.25 * 3.5f, &n);
    cr_assert_float_eq(f[0].z, 0.8f, 1e-4);
    cr_assert_float_eq(f[0].ceiling, 5.8f, 1e-4);
    /* Under the table no body fits (0.75 m): solid; its top is a floor. */
    f = column_at(w, 12.75, 6.5, &n);
    cr_assert_eq(n, 3);
    cr_assert_float_eq(f[0].z, 0.8f, 1e-4);
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

typedef struct Routing {
    NavWorld *w;
    NavAreaGraph *ag;
    NavRouter *r;
} Routing;

static Routing routing(const char *path)
{
    Routing g;
    NavError err;
    nav_error_clear(&err);
    g.w = test_load_map(path);
    g.ag = area_build(g.w, world_find_class(g.w, "human"), NULL, &err);
    cr_assert_not_null(g.ag, "%s", err.message);
    g.r = router_create(g.ag, NULL, &err);
    cr_assert_not_null(g.r, "%s", err.message);
    return g;
}

static void routing_free(Routing *g)
{
    router_destroy(g->r);
    area_destroy(g->ag);
    world_destroy(g->w);
}

static uint32_t area_at(const Routing *g, float x, float y, float z)
{
    uint32_t a = area_point_area(g->ag, x, y, z);
    cr_assert_neq(a, NAV_NO_AREA, "no area at (%g, %g, %g)", (double)x, (double)y, (double)z);
    return a;
}

/* Walking time (hundredths) from p to q, ROUTE_UNREACHABLE if none. */
static uint32_t walk_time(Routing *g, const float p[3], const float q[3])
{
    NavRoute out;
    uint32_t a = area_at(g, p[0], p[1], p[2]), b = area_at(g, q[0], q[1], q[2]);
    cr_assert(NAV_SUCCEEDED(router_route(g->r, a, p, b, NAV_TFL_TYPE(NAV_TRAVEL_WALK), &out)));
    return out.time;
}

/* The two ways up: the stairs (inside) and the ramp with its door. */
static const float STAIRS_MIN[3] = { 4.25f, 5.0f, -0.5f }, STAIRS_MAX[3] = { 5.75f, 8.75f, 3.5f };
static const float DOOR_MIN[3] = { 15.5f, 11.5f, 2.9f }, DOOR_MAX[3] = { 16.5f, 13.0f, 5.0f };

Test(map_mesh, the_stairs_are_a_walk_up)
{
    Routing g = routing("maps/house.obj");
    float hall[3] = { 8, 6, 0 }, upstairs[3] = { 7, 9.5f, 3 };
    cr_assert_neq(router_add_obstacle(g.r, DOOR_MIN, DOOR_MAX), 0u);
    uint32_t t = walk_time(&g, hall, upstairs);
    cr_assert_neq(t, ROUTE_UNREACHABLE, "walking up the stairs, the ramp's door shut");
    cr_assert_lt(t, 600u, "the stairs are close: %u hundredths", t);
    cr_assert_neq(router_add_obstacle(g.r, STAIRS_MIN, STAIRS_MAX), 0u);
    cr_assert_eq(walk_time(&g, hall, upstairs), ROUTE_UNREACHABLE, "no third way up");
    routing_free(&g);
    NAV_TEST_LEAK_CHECK();
}

Test(map_mesh, the_ramp_is_a_walk_up)
{
    Routing g = routing("maps/house.obj");
    cr_assert_neq(router_add_obstacle(g.r, STAIRS_MIN, STAIRS_MAX), 0u);
    float foot[3] = { 17, 1, 0 }, landing[3] = { 17, 12.5f, 3 }, east_room[3] = { 13, 6, 3 };
    cr_assert_neq(walk_time(&g, foot, landing), ROUTE_UNREACHABLE, "up the ramp");
    cr_assert_neq(walk_time(&g, foot, east_room), ROUTE_UNREACHABLE, "up the ramp and in at the door");
    /* The ramp rises steadily, 18.4 degrees: a cell's floor is its top. */
    float last = -1.0f;
    for (float y = 2.125f; y < 10.9f; y += 0.25f) {
        int n;
        const NavFloor *f = column_at(g.w, 17, y, &n);
        cr_assert_eq(f[n - 1].contents, NAV_CONTENTS_FLOOR, "ramp at y %g", (double)y);
        float rise = f[n - 1].z - last;
        if (last >= 0.0f) cr_assert(rise > 0.0f && rise < 0.15f, "rise %g at y %g", (double)rise, (double)y);
        last = f[n - 1].z;
    }
    routing_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= slopes ======= */

Test(map_mesh, the_terrains_steep_slopes_are_clip_and_its_shallow_ones_ground)
{
    Routing g = routing("maps/terrain.obj");
    static const struct {
        float x, y;
        bool ground;
        const char *what;
    } at[] = {
        { 20.25f, 20.25f, true, "the mesa's ramp, 20.6 degrees" },
        { 9.25f, 28.25f, true, "the hill's south face, 30 degrees" },
        { 34.75f, 20.25f, false, "the mesa's east cliff, 56 degrees" },
        { 29.25f, 25.75f, false, "the mesa's north cliff, 56 degrees" },
        { 9.25f, 32.25f, false, "the hill's north face, 55 degrees" },
    };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(at); i++) {
        int n;
        const NavFloor *f = column_at(g.w, at[i].x, at[i].y, &n);
        cr_assert_eq(n, 1, "%s", at[i].what);
        cr_assert_eq(f[0].contents, at[i].ground ? NAV_CONTENTS_FLOOR : NAV_CONTENTS_CLIP, "%s", at[i].what);
        uint32_t a = area_point_area(g.ag, at[i].x, at[i].y, f[0].z);
        cr_assert(at[i].ground ? a != NAV_NO_AREA : a == NAV_NO_AREA, "%s: area %u", at[i].what, a);
    }
    /* Up the ramp of earth on foot, and down the cliffs only by a drop. */
    float spawn[3] = { 3, 3, 0 }, mesa[3] = { 29, 20, 3 };
    int n;
    spawn[2] = column_at(g.w, 3, 3, &n)[0].z;
    cr_assert_neq(walk_time(&g, spawn, mesa), ROUTE_UNREACHABLE);
    routing_free(&g);
    NAV_TEST_LEAK_CHECK();
}

/* Two ramps 2 m high side by side, rising north from y 2: 40 degrees
** over x 0-4, 50 degrees over x 4-8; flat ground before them and a
** plateau at z 2 after them to y 8. (.obj Y-up: v x z -y.) */
static const char *TWO_RAMPS = "v 0 0 -2\nv 4 0 -2\nv 4 2 -4.3835\nv 0 2 -4.3835\n"
                               "v 4 0 -2\nv 8 0 -2\nv 8 2 -3.6782\nv 4 2 -3.6782\n"
                               "v 0 2 -8\nv 4 2 -8\nv 8 2 -8\nv 0 0 0\nv 8 0 0\n"
                               "f 1 2 3 4\nf 5 6 7 8\nf 4 3 10 9\nf 8 7 11 10\nf 12 13 6 1\n";

Test(map_mesh, slopes_against_the_most_permissive_class)
{
    NavWorld *w = load_text(TWO_RAMPS, NULL);
    int n;
    cr_assert_eq(column_at(w, 2.25f, 3.25f, &n)[0].contents, NAV_CONTENTS_FLOOR, "40 degrees: walkable");
    cr_assert_eq(column_at(w, 6.25f, 2.75f, &n)[0].contents, NAV_CONTENTS_CLIP, "50 degrees: too steep");
    world_destroy(w);
    /* A class that takes 55 degrees: the world keeps every class's floors. */
    w = load_text(TWO_RAMPS, "return { classes = { { name = 'goat', max_slope = 55 } } }");
    cr_assert_eq(world_class_count(w), 2);
    cr_assert_eq(column_at(w, 6.25f, 2.75f, &n)[0].contents, NAV_CONTENTS_FLOOR, "50 degrees for the goat");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

Test(map_mesh, ledges_are_clip_only_when_asked)
{
    /* A 2 x 2 m block 5 m tall (sides and top) on a 10 x 10 m ground: a
    ** drop over every class's 4 m fall. */
    const char *obj = "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 0 0 -10\nf 1 2 3 4\n"
                      "v 4 5 -4\nv 6 5 -4\nv 6 5 -6\nv 4 5 -6\nf 5 6 7 8\n"
                      "v 4 0 -4\nv 6 0 -4\nv 6 0 -6\nv 4 0 -6\n"
                      "f 9 10 6 5\nf 10 11 7 6\nf 11 12 8 7\nf 12 9 5 8\n";
    NavWorld *w = load_text(obj, NULL);
    int n;
    const NavFloor *f = column_at(w, 4.25f, 5.0f, &n);
    cr_assert_eq(f[n - 1].contents, NAV_CONTENTS_FLOOR, "the top's edge, by default");
    world_destroy(w);
    w = load_text(obj, "return { clip_ledges = true }");
    f = column_at(w, 4.25f, 5.0f, &n);
    cr_assert_float_eq(f[n - 1].z, 5.0f, 1e-4);
    cr_assert_eq(f[n - 1].contents, NAV_CONTENTS_CLIP, "the top's edge beside a 5 m drop");
    f = column_at(w, 5.0f, 5.0f, &n);
    cr_assert_eq(f[n - 1].contents, NAV_CONTENTS_FLOOR, "the top's middle");
    world_destroy(w);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= floors against rays ======= */

/* Every triangle the map keeps solid, in world metres. */
typedef struct Soup {
    float (*t)[3][3];
    int n;
} Soup;

static Soup soup_of(const char *path, const NavWorld *w)
{
    char *data;
    size_t len;
    NavError err;
    cr_assert(NAV_SUCCEEDED(fileio_read(path, NAV_MAP_MAX_FILE_BYTES, &data, &len, &err)), "%s", err.message);
    ObjMesh m;
    cr_assert(NAV_SUCCEEDED(obj_parse(data, len, path, 1u << 20, &m, &err)), "%s", err.message);
    nav_free(data);
    Soup s = { nav_malloc((size_t)m.nt * sizeof *s.t), 0 };
    cr_assert_not_null(s.t);
    (void)w;
    for (uint32_t i = 0; i < m.nt; i++) {
        const char *mat = m.mat[m.t_mat[i]];
        /* Not solid, by the bundled sidecars. */
        if (strcmp(mat, "water") == 0 || strcmp(mat, "leaves") == 0) continue;
        for (int k = 0; k < 3; k++) {
            const float *v = m.v + 3 * m.tri[3 * i + (uint32_t)k];
            s.t[s.n][k][0] = v[0], s.t[s.n][k][1] = -v[2], s.t[s.n][k][2] = v[1]; /* Y-up to Z-up */
        }
        s.n++;
    }
    obj_free(&m);
    return s;
}

/* Heights where the vertical line through (x, y) meets the soup, sorted. */
static int hits(const Soup *s, float x, float y, float *out, int cap)
{
    int n = 0;
    for (int i = 0; i < s->n && n < cap; i++) {
        const float(*t)[3] = s->t[i];
        double d = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]);
        if (fabs(d) < 1e-9) continue; /* vertical: a line does not meet it */
        double a = ((t[1][0] - x) * (t[2][1] - y) - (t[2][0] - x) * (t[1][1] - y)) / d;
        double b = ((t[2][0] - x) * (t[0][1] - y) - (t[0][0] - x) * (t[2][1] - y)) / d;
        double c = 1.0 - a - b;
        if (a < -1e-6 || b < -1e-6 || c < -1e-6) continue;
        out[n++] = (float)(a * t[0][2] + b * t[1][2] + c * t[2][2]);
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j] < out[j - 1]; j--) {
            float k = out[j];
            out[j] = out[j - 1], out[j - 1] = k;
        }
    return n;
}

/* Each floor that stands on ground lies on a surface the ray at its cell's
** centre meets: within half a voxel above it, or lower by at most `slack`
** (a cell's floor is its highest point: a slope rises across the cell,
** and Recast lets ground win over a steep face whose top is within a step
** of it). Each finite ceiling likewise, the other way round. */
static void check_against_rays(const char *path, float slack, int min_ceilings)
{
    NavWorld *w = test_load_map(path);
    Soup s = soup_of(path, w);
    float ch = 0.05f;
    float down = slack + ch, up = 0.5f * ch + 1e-3f;
    float h[64];
    int floors = 0, ceilings = 0;
    for (int cy = 0; cy < world_height(w); cy++) {
        for (int cx = 0; cx < world_width(w); cx++) {
            float x, y;
            world_cell_center(w, cx, cy, &x, &y);
            int nh = hits(&s, x, y, h, 64), n;
            const NavFloor *f = world_column(w, cx, cy, &n);
            for (int i = 0; i < n; i++) {
                if (f[i].contents == NAV_CONTENTS_FLOOR) {
                    bool met = false;
                    for (int k = 0; k < nh && !met; k++) met = h[k] >= f[i].z - down && h[k] <= f[i].z + up;
                    cr_assert(met, "%s: floor at %g in cell (%d, %d) meets no surface under (%g, %g)", path,
                              (double)f[i].z, cx, cy, (double)x, (double)y);
                    floors++;
                }
                if (isfinite(f[i].ceiling)) {
                    bool met = false;
                    for (int k = 0; k < nh && !met; k++) met = h[k] >= f[i].ceiling - up && h[k] <= f[i].ceiling + down;
                    cr_assert(met, "%s: ceiling at %g in cell (%d, %d) meets no surface", path, (double)f[i].ceiling,
                              cx, cy);
                    ceilings++;
                }
            }
            /* The other way: the highest surface the ray meets is the top
            ** floor (the open sky's), where that is ground (a clip floor on
            ** a cliff reads its cell's highest point, far from the centre). */
            if (nh > 0 && n > 0 && f[n - 1].contents == NAV_CONTENTS_FLOOR) {
                cr_assert(isinf(f[n - 1].ceiling), "%s: cell (%d, %d): a ceiling over the top floor", path, cx, cy);
                cr_assert(h[nh - 1] >= f[n - 1].z - down && h[nh - 1] <= f[n - 1].z + up,
                          "%s: cell (%d, %d): top floor %g, highest surface %g", path, cx, cy, (double)f[n - 1].z,
                          (double)h[nh - 1]);
            }
        }
    }
    cr_assert_gt(floors, 1000);
    cr_assert_geq(ceilings, min_ceilings, "%s: %d ceilings", path, ceilings);
    nav_free(s.t);
    world_destroy(w);
}

Test(map_mesh, house_floors_and_ceilings_match_rays_through_the_mesh)
{
    /* Level floors, and an 18.4 degree ramp over half a 0.25 m cell's
    ** diagonal. */
    check_against_rays("maps/house.obj", 0.71f * 0.25f * 0.34f, 3000);
    NAV_TEST_LEAK_CHECK();
}

Test(map_mesh, terrain_floors_match_rays_through_the_mesh)
{
    /* Slopes up to 45 degrees over half a 0.5 m cell's diagonal, and a
    ** steep face within a step (0.45 m) over the ground at a ridge. */
    check_against_rays("maps/terrain.obj", 0.71f * 0.5f + 0.45f, 0);
    NAV_TEST_LEAK_CHECK();
}

/* }======= */

/* {======= every bundled mesh ======= */

Test(map_mesh, every_bundled_mesh_compiles_for_every_class)
{
    static const char *const MESHES[] = { "maps/house.obj", "maps/terrain.obj" };
    for (size_t i = 0; i < NAV_ARRAY_COUNT(MESHES); i++) {
        NavWorld *w = test_load_map(MESHES[i]);
        NavWorld *again = test_load_map(MESHES[i]);
        cr_assert_eq(world_floor_total(w), world_floor_total(again), "%s loads the same twice", MESHES[i]);
        for (int c = 0; c < world_class_count(w); c++) {
            NavError err;
            nav_error_clear(&err);
            NavAreaGraph *ag = area_build(w, c, NULL, &err);
            cr_assert_not_null(ag, "%s, %s: %s", MESHES[i], world_class(w, c)->name, err.message);
            cr_assert_gt(area_count(ag), 10);
            area_destroy(ag);
        }
        world_destroy(again);
        world_destroy(w);
    }
    NAV_TEST_LEAK_CHECK();
}

/* }======= */
