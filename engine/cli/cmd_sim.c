/*
** cmd_sim.c — `navbot sim MAP [BRAIN[:COUNT][@WHERE] ...]`: bots with Lua
** brains in the SDL2 window, or headless drawing the same picture to PNG
** (--headless, or when there is no display). The picture options
** (--overlay, --select, --level, --size, --view, --px-per-m, --width)
** shape both.
**
** `navbot replay TRACE` (cmd_replay.c) plays a recorded run through the
** same window and pictures; the options they share are parsed here.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/player.h"
#include "cli/sim_setup.h"
#include "render/snapshot.h"
#include "sim/sim_debug.h"

/* {======= picture options (sim and replay) ======= */

typedef struct PictureArgs {
    bool headless;
    const char *png;        /* at the end */
    const char *png_dir;    /* a sequence */
    const char *last_frame; /* window: its last frame (--screenshot) */
    uint32_t png_every;
    int width, height; /* 0: from the map */
    uint32_t overlays;
    bool overlays_given;
    int select, level;     /* level: resolved from level_arg by check_level */
    const char *level_arg; /* --level: a storey's number from 1 or its name */
    float time_scale;
    bool place_on; /* --place: a footprint's placement preview */
    float place[5];
    CliView view; /* --view, --px-per-m, --width: the part drawn and the size */
} PictureArgs;

static void picture_defaults(PictureArgs *p)
{
    memset(p, 0, sizeof *p);
    p->select = -1;
    p->level = -1;
    p->time_scale = 1.0f;
}

static bool parse_overlays(const char *list, uint32_t *out)
{
    *out = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (strcmp(tok, "none") == 0) continue;
        if (strcmp(tok, "all") == 0) {
            *out |= RENDER_BIT(RENDER_OVERLAY_COUNT) - 1u;
            continue;
        }
        int o = 0;
        while (o < RENDER_OVERLAY_COUNT && strcmp(tok, render_overlay_name((RenderOverlay)o)) != 0 &&
               !(strcmp(tok, "heat") == 0 && o == RENDER_HEAT))
            o++;
        if (o == RENDER_OVERLAY_COUNT) return false;
        *out |= RENDER_BIT(o);
    }
    return true;
}

/* 1 taken, 0 not a picture option, -1 usage error printed. */
static int picture_option(const CliContext *cx, const CliCommand *cmd, PictureArgs *p, int argc, char **argv, int *i)
{
    const char *val;
    int r;
    uint32_t u;
    if ((r = cli_view_option(cx, cmd, &p->view, argc, argv, i)) != 0) {
        return r;
    } else if (strcmp(argv[*i], "--headless") == 0) {
        p->headless = true;
    } else if ((r = cli_take_value("--png", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--png needs a file name"), -1;
        p->png = val;
    } else if (strcmp(argv[*i], "--png-every") == 0) {
        if (*i + 2 >= argc || !cli_parse_u32(argv[*i + 1], &u) || u == 0)
            return cli_usage_error(cx, cmd, "--png-every needs K (ticks, from 1 to 4294967295) and a folder"), -1;
        p->png_every = u;
        p->png_dir = argv[*i + 2];
        *i += 2;
    } else if ((r = cli_take_value("--size", argc, argv, i, &val)) != 0) {
        int w = 0, h = 0, used = 0;
        if (r < 0 || sscanf(val, "%dx%d%n", &w, &h, &used) != 2 || val[used] || w < 160 || h < 120 || w > 8192 ||
            h > 8192)
            return cli_usage_error(cx, cmd, "--size needs WIDTHxHEIGHT, from 160x120 to 8192x8192"), -1;
        p->width = w, p->height = h;
    } else if ((r = cli_take_value("--overlay", argc, argv, i, &val)) != 0) {
        uint32_t bits;
        if (r < 0 || !parse_overlays(val, &bits))
            return cli_usage_error(cx, cmd,
                                   "--overlay needs a list of: areas, links, clusters, heat, grid, regions, explored, "
                                   "obstacles, traces, memory, trails, all, none"),
                   -1;
        p->overlays |= bits;
        p->overlays_given = true;
    } else if ((r = cli_take_value("--place", argc, argv, i, &val)) != 0) {
        float q[5] = { 0 };
        int used = 0, got = r < 0 ? 0 : sscanf(val, "%f,%f,%f,%f%n", &q[0], &q[1], &q[2], &q[3], &used);
        if (got == 4 && val[used] == ',') {
            int more = 0;
            if (sscanf(val + used + 1, "%f%n", &q[4], &more) != 1) got = 0;
            used += 1 + more;
        }
        bool ok = got == 4 && !val[used];
        for (int k = 0; k < 5 && ok; k++) ok = isfinite(q[k]);
        if (!ok || q[2] <= 0.0f || q[3] <= 0.0f || q[2] > 1000.0f || q[3] > 1000.0f)
            return cli_usage_error(cx, cmd,
                                   "--place needs X,Y,WIDTH,DEPTH[,DEGREES]: a footprint's centre and size in "
                                   "metres (sizes above 0, at most 1000)"),
                   -1;
        memcpy(p->place, q, sizeof q);
        p->place_on = true;
    } else if ((r = cli_take_value("--select", argc, argv, i, &val)) != 0) {
        if (r < 0 || !cli_parse_u32(val, &u)) return cli_usage_error(cx, cmd, "--select needs a bot id"), -1;
        p->select = (int)u;
    } else if ((r = cli_take_value("--level", argc, argv, i, &val)) != 0) {
        if (r < 0 || !*val)
            return cli_usage_error(cx, cmd, "--level needs a storey: its number from 1 or its name"), -1;
        p->level_arg = val;
    } else if ((r = cli_take_value("--screenshot", argc, argv, i, &val)) != 0) {
        if (r < 0) return cli_usage_error(cx, cmd, "--screenshot needs a file name"), -1;
        p->last_frame = val;
    } else if ((r = cli_take_value("--time-scale", argc, argv, i, &val)) != 0) {
        const char *s = val;
        float t;
        if (r < 0 || !cli_parse_number(&s, &t) || *s || t < 1.0f / 64.0f || t > 64.0f)
            return cli_usage_error(cx, cmd, "--time-scale needs a number from 1/64 to 64"), -1;
        p->time_scale = t;
    } else {
        return 0;
    }
    return 1;
}

/* --level N or NAME among the map's storeys (the renderer's floor
** selector), and --view with its size against the map: CLI_OK with
** pa->level and the view resolved (a size from --px-per-m or --width in
** pa->width, pa->height), or CLI_USAGE with the reason printed. */
static int check_level(const CliContext *cx, const char *cmd, PictureArgs *pa, const NavWorld *w)
{
    const CliCommand *c = strcmp(cmd, "sim") == 0 ? &cli_cmd_sim : &cli_cmd_replay;
    int rc = cli_resolve_level(cx, cmd, pa->level_arg, w, &pa->level);
    if (rc != CLI_OK) return rc;
    if (pa->width && (pa->view.px_per_m > 0.0f || pa->view.width > 0))
        return cli_usage_error(cx, c, "--size and --%s both size the picture: give one of them",
                               pa->view.width > 0 ? "width" : "px-per-m");
    if ((rc = cli_view_check(cx, c, &pa->view, w, RENDER_FIT_TOP + RENDER_FIT_BOTTOM)) != CLI_OK) return rc;
    if (pa->view.scale > 0.0f) pa->width = pa->view.pic_w, pa->height = pa->view.pic_h;
    return CLI_OK;
}

/* The view the picture options ask for. */
static void picture_view(const PictureArgs *pa, const NavWorld *w, const NavSim *sim, int width, int height,
                         RenderView *v)
{
    if (pa->view.box_set || pa->view.scale > 0.0f) render_view_box(v, w, pa->view.box, pa->view.scale, width, height);
    else render_view_fit(v, w, width, height);
    if (pa->overlays_given) v->overlays = pa->overlays;
    if (pa->select >= 0 && (uint32_t)pa->select < sim_bot_count(sim)) v->selected = pa->select;
    /* check_level resolved it against the map: valid for the window too,
    ** which has no renderer yet when its view is made. */
    if (pa->level >= 0) v->level = pa->level;
    if (pa->place_on) {
        v->place_on = true;
        memcpy(v->place, pa->place, sizeof v->place);
    }
}

static int make_dir(const CliContext *cx, const char *cmd, const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(cx->err, "navbot %s: --png-every: cannot make %s: %s\n", cmd, dir, strerror(errno));
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

/* Headless: play `ticks` ticks (or until `done` says so, at most `ticks`),
** writing the sequence and the last picture. */
static int play_headless(const CliContext *cx, const char *cmd, Player *p, const PictureArgs *pa, uint64_t ticks,
                         bool (*done)(Player *))
{
    NavError err;
    nav_error_clear(&err);
    Renderer *r = render_create(&err);
    if (!r) {
        cli_print_error(cx, cmd, &err);
        return CLI_BAD_INPUT;
    }
    const NavWorld *w = sim_world(p->sim);
    int width = pa->width, height = pa->height;
    if (!width && pa->view.box_set) {
        /* --view alone: 1280 wide, as tall as the part needs. */
        float bw = pa->view.box[2] - pa->view.box[0], bh = pa->view.box[3] - pa->view.box[1];
        width = 1280;
        height = NAV_MIN(NAV_MAX((int)lroundf(1280.0f * bh / bw) + RENDER_FIT_TOP + RENDER_FIT_BOTTOM, 480), 2560);
    } else if (!width) {
        render_picture_size(w, 1280, &width, &height);
    }
    RenderView v;
    picture_view(pa, w, p->sim, width, height, &v);
    RenderInfo info;
    int rc = CLI_OK;
    if (pa->png_dir && (rc = make_dir(cx, cmd, pa->png_dir)) != CLI_OK) goto done;
    uint32_t shots = 0;
    for (uint64_t t = 0; t < ticks; t++) {
        if (done && done(p)) break;
        if (!player_step(p)) break;
        if (pa->png_dir && sim_tick(p->sim) % pa->png_every == 0) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s-%06llu.png", pa->png_dir, cmd, (unsigned long long)sim_tick(p->sim));
            player_info(p, &info);
            if (NAV_FAILED(render_png(r, p->sim, &v, &info, width, height, path, &err))) {
                cli_print_error(cx, cmd, &err);
                rc = CLI_BAD_INPUT;
                goto done;
            }
            shots++;
        }
    }
    if (pa->png) {
        player_info(p, &info);
        if (NAV_FAILED(render_png(r, p->sim, &v, &info, width, height, pa->png, &err))) {
            cli_print_error(cx, cmd, &err);
            rc = CLI_BAD_INPUT;
            goto done;
        }
        fprintf(cx->err, "navbot %s: picture of tick %llu written to %s (%dx%d)\n", cmd,
                (unsigned long long)sim_tick(p->sim), pa->png, width, height);
    }
    if (pa->png_dir)
        fprintf(cx->err, "navbot %s: %u pictures written to %s/, one every %u ticks\n", cmd, shots, pa->png_dir,
                pa->png_every);
done:
    render_destroy(r);
    return rc;
}

static bool have_display(void)
{
    const char *d = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (wl && *wl);
}

/* }======= */

/* {======= navbot sim ======= */

typedef struct SimArgs {
    SimSetup setup;
    PictureArgs pic;
    const char *trace;
    uint32_t ticks; /* 0: headless until arrived (cap), window until closed */
} SimArgs;

static int parse_sim(const CliContext *cx, int argc, char **argv, SimArgs *a)
{
    memset(a, 0, sizeof *a);
    sim_setup_defaults(&a->setup);
    picture_defaults(&a->pic);
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        uint32_t u;
        if ((r = sim_setup_option(cx, &cli_cmd_sim, &a->setup, argc, argv, &i)) != 0 ||
            (r = picture_option(cx, &cli_cmd_sim, &a->pic, argc, argv, &i)) != 0) {
            if (r < 0) return CLI_USAGE;
        } else if ((r = cli_take_value("--ticks", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u) || u == 0 || u > NAV_LIMIT_TICKS)
                return cli_usage_error(cx, &cli_cmd_sim, "--ticks needs a whole number from 1 to %u (the limit)",
                                       NAV_LIMIT_TICKS);
            a->ticks = u;
        } else if ((r = cli_take_value("--trace", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_sim, "--trace needs a file name");
            a->trace = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_sim, "unknown option '%s'", argv[i]);
        } else if (!a->setup.map) {
            a->setup.map = argv[i];
        } else if (sim_setup_add_group(cx, &cli_cmd_sim, &a->setup, argv[i]) != CLI_OK) {
            return CLI_USAGE;
        }
    }
    if (!a->setup.map) return cli_usage_error(cx, &cli_cmd_sim, "which map?");
    return CLI_OK;
}

static bool sim_done(Player *p)
{
    SimPlayer you = { .body = p->body, .bot = p->body ? (int)player_body_bot(p->body) : -1 };
    return sim_setup_all_done(p->session, &you);
}

static int run_sim(const CliContext *cx, int argc, char **argv)
{
    SimArgs a;
    int rc = parse_sim(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    SimPlayer pl;
    if ((rc = sim_player_prepare(cx, &cli_cmd_sim, &a.setup, &pl, false)) != CLI_OK) return rc;
    /* No bots given: one runner from the first spawn, so the map is never
    ** still (a player keeps it moving itself). */
    if (!a.setup.group_count && !a.setup.player.on) sim_setup_add_group(cx, &cli_cmd_sim, &a.setup, "runner");
    bool window = !a.pic.headless;
    if (window && !have_display()) {
        fprintf(cx->err, "navbot sim: no display (DISPLAY is not set): drawing headless instead\n");
        window = false;
    }
    /* Headless, the last frame is the picture at the end. */
    if (!window && !a.pic.png && a.pic.last_frame) a.pic.png = a.pic.last_frame;
    if (!window && !a.pic.png && !a.pic.png_dir) a.pic.png = "navbot-sim.png";

    NavWorld *w;
    NavSession *s;
    if ((rc = sim_setup_start(cx, "sim", &a.setup, &pl, &w, &s)) != CLI_OK) {
        sim_player_free(&pl);
        return rc;
    }
    if ((rc = check_level(cx, "sim", &a.pic, w)) != CLI_OK) {
        sim_player_free(&pl);
        session_destroy(s);
        world_destroy(w);
        return rc;
    }
    sim_show_enable(session_sim(s), true);
    NavError e;
    nav_error_clear(&e);
    /* No history is no trails and no plots, not a failure. */
    Player p = {
        .sim = session_sim(s), .session = s, .title = a.setup.map, .body = pl.body, .history = render_history_create()
    };
    /* The camera is on the player unless another bot is asked for. */
    if (pl.body && a.pic.select < 0) a.pic.select = pl.bot;
    if (a.trace && !(p.record = run_trace_create(a.trace, s, a.setup.map, a.setup.root, a.setup.seed, &e))) {
        cli_print_error(cx, "sim", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    if (window) {
        int width = a.pic.width ? a.pic.width : 1280, height = a.pic.height ? a.pic.height : 800;
        RenderView v;
        picture_view(&a.pic, w, p.sim, width, height, &v);
        v.help = true; /* the keys on first sight; H hides them */
        p.last_frame = a.pic.last_frame;
        rc = window_run(cx, &p, &v, width, height, a.ticks, a.pic.time_scale);
    } else {
        uint64_t ticks = a.ticks ? a.ticks : (uint64_t)(300.0 * a.setup.hz);
        if (!a.ticks && pl.replay && pl.replay->ticks > ticks) ticks = pl.replay->ticks;
        rc = play_headless(cx, "sim", &p, &a.pic, ticks, a.ticks ? NULL : sim_done);
    }
    if (rc == CLI_OK) sim_setup_report(cx, s, &a.setup, &pl);
    NavStatus closed = run_trace_close(p.record, &e);
    p.record = NULL;
    if (NAV_FAILED(closed)) {
        cli_print_error(cx, "sim", &e);
        rc = CLI_BAD_INPUT;
    } else if (a.trace) {
        fprintf(cx->err, "navbot sim: trace written to %s (navbot replay %s)\n", a.trace, a.trace);
    }
    if (rc == CLI_OK) rc = sim_player_finish(cx, "sim", &a.setup, &pl);
done:
    run_trace_close(p.record, NULL);
    render_history_destroy(p.history);
    sim_player_free(&pl);
    session_destroy(s);
    world_destroy(w);
    return rc;
}

const CliCommand cli_cmd_sim = {
    .name = "sim",
    .summary = "watch bots with Lua brains in a window, or draw them headless to PNG",
    .usage = "navbot sim MAP [BRAIN[:COUNT][@WHERE] ...] [--goal WHERE ...] [--seed N] [--ticks N]\n"
             "                  [--headless] [--png FILE] [--png-every K DIR] [--overlay LIST] [--trace FILE]\n"
             "                  [--player [CLASS][@WHERE]] [--player-brain BRAIN] [--record-player FILE]\n"
             "                  [--play-player FILE] [--view X0,Y0,X1,Y1] [--px-per-m N | --width N]",
    .help = "Runs MAP with bots driven by Lua brains (bots/BRAIN.lua) in an SDL2 window: the\n"
            "world from above (heights, water, lava, ladders, walls), entities (elevators at\n"
            "their height, teleporters, jump pads with their arc, doors, crates), every bot's\n"
            "route, the link it is taking, its move requests as arrows and its hull traces,\n"
            "and overlays for areas, links, clusters, the routing heat map, grid passability,\n"
            "regions and the last grid search (and unit detour); RTS units' paths, detours\n"
            "in amber, and formation slots. H in the window lists every key. Without a\n"
            "display (or with --headless) the same picture goes to PNG. Along the bottom a\n"
            "legend names what the picture shows (the links' travel types, floors, things,\n"
            "bots by brain, the overlays and the heat map's scale in seconds), with a scale\n"
            "bar and a north arrow at its right (L in the window hides them).\n"
            "\n"
            "  BRAIN[:COUNT][@WHERE]  bots, as --bot in navbot run (default: one runner)\n"
            "  --bot, --goal, --class, --seed, --hz, --root, --quiet   as in navbot run\n"
            "  --ticks N            window: close after N ticks; headless: run N ticks\n"
            "                       (default: until every bot arrived, at most 300 s)\n"
            "  --headless           no window: draw to PNG\n"
            "  --png FILE           the picture at the end (headless default: navbot-sim.png)\n"
            "  --png-every K DIR    a picture every K ticks into DIR (sim-TICK.png)\n"
            "  --screenshot FILE    the window's last frame as shown, to PNG when it closes\n"
            "                       (with --ticks: a picture of the real window); headless,\n"
            "                       the picture at the end, as --png\n"
            "  --overlay LIST       overlays on at the start: areas,links,clusters,heat,grid,\n"
            "                       regions,explored,obstacles,traces,memory (the selected\n"
            "                       bot's navigation memory and search), trails (where each\n"
            "                       bot went in the last 12 s, coloured by travel type,\n"
            "                       fading; window: B), all or none (default: obstacles,traces)\n"
            "  --select ID          select bot ID: its panel (its state as the report says\n"
            "                       it, plots of its speed and state over the last 12 s, its\n"
            "                       last route choices), route and the heat map's goal\n"
            "  --place X,Y,W,D[,DEG]  preview a W x D m building footprint centred at (X, Y),\n"
            "                       turned DEG degrees: green where a house may be built, red\n"
            "                       with the reason, and the spawn points round it (window: P)\n"
            "  --level N|NAME       show storey N (from 1) or the layer NAME of a stacked map\n"
            "  --size WxH           picture or window size (default 1280 wide)\n"
            "  --view X0,Y0,X1,Y1   draw that part of the map: its south-west and north-east\n"
            "                       corners in metres (window: where the camera starts)\n"
            "  --px-per-m N         the scale, pixels per metre (up to 1000): the picture or\n"
            "                       window is the view (default the whole map) at that scale\n"
            "  --width N            the same, N pixels wide (160 to 8192); --size, --px-per-m\n"
            "                       and --width each size the picture: give one\n"
            "  --time-scale X       window: X ticks of time per second of yours (default 1)\n"
            "  --trace FILE         record the run for navbot replay\n"
            "\n"
            "A player: a body of your own, added after the bots (no default runner then),\n"
            "with the bots' physics; the camera follows it (docs/player.md):\n"
            "  --player [CLASS][@WHERE]  its class (default: the map's first) and start (a\n"
            "                       spawn or entity name, or X,Y[,Z]; default: the map's\n"
            "                       first spawn). The next argument is taken when it is\n"
            "                       @WHERE or CLASS@WHERE; --player=CLASS names a class alone\n"
            "  --player-brain BRAIN a brain drives it instead of the keys (it gets --goal)\n"
            "  --record-player FILE write the controls it moved by, tick by tick\n"
            "  --play-player FILE   replay a recording (its class, start, seed and tick rate)\n"
            "In the window the keys drive the player; keys that collide move:\n"
            "  W A S D / arrows     move (up on the screen is north)\n"
            "  Space                jump (in water: jump out)\n"
            "  C (held)             crouch; on a ladder: climb down\n"
            "  E (held)             use: a lift the player stands on leaves now\n"
            "  mouse                where the player faces\n"
            "  ladders              walk into the wall a ladder leans on to climb, away\n"
            "                       from it (or C) to climb down; doors open as it comes\n"
            "  Enter                run / pause (Space without a player; Enter works always)\n"
            "  V                    the storey follows the selected bot (S without a player)\n"
            "  K                    next mover class (C without a player)\n"
            "  drag                 pan (the arrows without a player); F stops following\n"
            "\n"
            "Examples:\n"
            "  navbot sim maps/gauntlet.lua runner\n"
            "  navbot sim maps/tower.lua runner:3 climber --seed 7 --overlay links,heat --select 0\n"
            "  navbot sim maps/gauntlet.lua runner --headless --ticks 900 --png /tmp/gauntlet.png\n"
            "  navbot sim maps/valley.lua rts:200 --headless --ticks 300 --png-every 30 /tmp/valley\n"
            "  navbot sim maps/valley.lua rts --headless --ticks 1 --place 60,40,10,8,30 --png /tmp/place.png\n"
            "  navbot sim maps/valley.lua --headless --ticks 60 --view 30,80,95,135 --px-per-m 10 --png /tmp/town.png\n"
            "  navbot sim maps/tower.lua --player --record-player /tmp/me.player\n"
            "  navbot sim maps/tower.lua runner:3 --play-player /tmp/me.player\n",
    .run = run_sim,
};

/* }======= */

/* {======= navbot replay ======= */

typedef struct ReplayArgs {
    const char *trace;
    const char *map; /* instead of the one recorded */
    PictureArgs pic;
    bool has_tick;
    uint64_t tick; /* headless: the tick to draw; window: where to start */
} ReplayArgs;

static int parse_replay(const CliContext *cx, int argc, char **argv, ReplayArgs *a)
{
    memset(a, 0, sizeof *a);
    picture_defaults(&a->pic);
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        uint32_t u;
        if ((r = picture_option(cx, &cli_cmd_replay, &a->pic, argc, argv, &i)) != 0) {
            if (r < 0) return CLI_USAGE;
        } else if ((r = cli_take_value("--tick", argc, argv, &i, &val)) != 0) {
            if (r < 0 || !cli_parse_u32(val, &u))
                return cli_usage_error(cx, &cli_cmd_replay, "--tick needs a tick number");
            a->tick = u;
            a->has_tick = true;
        } else if ((r = cli_take_value("--map", argc, argv, &i, &val)) != 0) {
            if (r < 0) return cli_usage_error(cx, &cli_cmd_replay, "--map needs a map file");
            a->map = val;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cx, &cli_cmd_replay, "unknown option '%s'", argv[i]);
        } else if (!a->trace) {
            a->trace = argv[i];
        } else {
            return cli_usage_error(cx, &cli_cmd_replay, "one trace only (got '%s' and '%s')", a->trace, argv[i]);
        }
    }
    if (!a->trace)
        return cli_usage_error(cx, &cli_cmd_replay, "which trace? (navbot run or sim --trace FILE writes one)");
    return CLI_OK;
}

static int run_replay(const CliContext *cx, int argc, char **argv)
{
    ReplayArgs a;
    int rc = parse_replay(cx, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    NavError e;
    nav_error_clear(&e);
    RunTrace *t = run_trace_load(a.trace, &e);
    if (!t) {
        cli_print_error(cx, "replay", &e);
        return CLI_BAD_INPUT;
    }
    NavWorld *w = cli_load_map(cx, "replay", a.map ? a.map : t->map, &e);
    NavSim *sim = NULL;
    if (!w) {
        if (!a.map) fprintf(cx->err, "navbot replay: the record's map is %s; give another with --map FILE\n", t->map);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    if ((rc = check_level(cx, "replay", &a.pic, w)) != CLI_OK) goto done;
    if (!(sim = run_trace_sim(t, w, &e))) {
        cli_print_error(cx, "replay", &e);
        rc = CLI_BAD_INPUT;
        goto done;
    }
    Player p = { .sim = sim, .trace = t, .title = a.trace, .history = render_history_create() };
    player_seek(&p, a.has_tick ? run_trace_frame_at(t, a.tick) : 0);
    bool window = !a.pic.headless;
    if (window && !have_display()) {
        fprintf(cx->err, "navbot replay: no display (DISPLAY is not set): drawing headless instead\n");
        window = false;
    }
    if (window) {
        int width = a.pic.width ? a.pic.width : 1280, height = a.pic.height ? a.pic.height : 800;
        RenderView v;
        picture_view(&a.pic, w, sim, width, height, &v);
        p.last_frame = a.pic.last_frame;
        rc = window_run(cx, &p, &v, width, height, 0, a.pic.time_scale);
    } else {
        if (!a.pic.png && a.pic.last_frame) a.pic.png = a.pic.last_frame;
        if (!a.pic.png && !a.pic.png_dir) a.pic.png = "navbot-replay.png";
        /* One picture at --tick (default the last), or a sequence from it. */
        uint64_t ticks = a.pic.png_dir ? t->frame_count : 0;
        if (!a.has_tick && !a.pic.png_dir) player_seek(&p, (int64_t)t->frame_count - 1);
        rc = play_headless(cx, "replay", &p, &a.pic, ticks, NULL);
    }
    render_history_destroy(p.history);
    if (rc == CLI_OK)
        fprintf(cx->out, "%s: %s, %u bots, ticks %llu to %llu, shown up to tick %llu (hash %016llx)\n", a.trace, t->map,
                t->bot_count, (unsigned long long)t->frames[0].tick,
                (unsigned long long)t->frames[t->frame_count - 1].tick, (unsigned long long)sim_tick(sim),
                (unsigned long long)sim_trace_hash(sim));
done:
    sim_destroy(sim);
    world_destroy(w);
    run_trace_destroy(t);
    return rc;
}

const CliCommand cli_cmd_replay = {
    .name = "replay",
    .summary = "play a recorded run (navbot run/sim --trace, failed scenarios) in the window or to PNG",
    .usage = "navbot replay TRACE [--tick N] [--map FILE] [--headless] [--png FILE] [--png-every K DIR]\n"
             "                  [--overlay LIST] [--select ID] [--view X0,Y0,X1,Y1] [--px-per-m N | --width N]",
    .help = "Shows a recorded run as the live window showed it: bodies, state text, goal\n"
            "queues, routes, move requests, hull traces, the brains' debug drawings,\n"
            "elevators, doors, crates and obstacles as they were at every tick, over the\n"
            "map the record names. In the window Space plays and pauses, Left/Right seek a\n"
            "second (shift: ten), [ and ] step one tick, Home with shift goes back to the\n"
            "start; H lists every key. Seeking costs the same anywhere in a record. The\n"
            "HUD's timings and cache counters and the selected bot's control are the live\n"
            "run's own (docs/replay.md). Traces of version 2 play with what they have.\n"
            "\n"
            "  --tick N             start at tick N (headless: draw tick N; default the last)\n"
            "  --map FILE           the map, when the recorded path no longer finds it\n"
            "  --headless, --png, --png-every, --overlay, --select, --place, --level,\n"
            "  --size, --view, --px-per-m, --width, --time-scale\n"
            "                       as in navbot sim (headless default: navbot-replay.png)\n"
            "\n"
            "Examples:\n"
            "  navbot run maps/gauntlet.lua --bot runner --trace /tmp/run.trace\n"
            "  navbot replay /tmp/run.trace\n"
            "  navbot replay /tmp/run.trace --headless --tick 600 --png /tmp/tick600.png --select 0\n",
    .run = run_replay,
};

/* }======= */
