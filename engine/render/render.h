/*
** render.h — the top-down picture of a running (or replayed) simulation,
** drawn in software into an RGBA canvas (core/image.h). The SDL2 window
** shows these canvases; headless runs write them as PNG. One renderer,
** one picture: what a PNG shows is what the window showed.
**
** What is drawn, bottom to top:
**   the world per cell: height shading, contents (water, lava, slime,
**     ladders, clip, void), walls where the floor steps more than a
**     stair, and the floor selector's cut for stacked maps;
**   cell overlays: areas (tinted by cluster), clusters and portals, the
**     routing-cache heat map (travel time to a goal), grid passability for
**     the view's class, hierarchical regions, the last grid search's
**     explored cells;
**   entities: elevators at their current height, teleporters with a line
**     to where they send you, jump pads with their arc, doors (open, shut,
**     locked), crates, spawns, goals; obstacles;
**   reachabilities coloured by travel type;
**   a building footprint's placement preview and spawn points;
**   the selected bot's navigation memory: known areas, learned links,
**     the frontier, its sliced search's progress;
**   trails: where each bot went in the last seconds, coloured by the
**     travel type it moved by, fading with age (render_history.h);
**   bots: body, heading, route, the link being taken, this tick's move
**     requests as arrows, hull traces, state text, faults; the player's
**     body (RenderInfo.player) apart, always labelled;
**   the HUD, the selected bot's panel (with plots of its speed and state
**     and its last route choices), a failed script reload's error in red
**     until a reload succeeds, help, and the legend band: the
**     colours of what this picture shows by name (travel types of the
**     links drawn, contents, entities, bots' brains, the overlays on, the
**     heat map's scale in seconds), the scale bar and the north arrow;
**   labels (entities, bots, storey marks) placed so that none covers
**     another, the least important dropped first (render_legend.h).
**
** The drawing reads the simulation and changes nothing in it, except that
** building the class's area graph, router or grid on first use (for an
** overlay) is the sim's usual lazy build.
**
** DOES NOT: open windows (cli/window.c does) or read input.
*/
#ifndef NAV_RENDER_H
#define NAV_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/image.h"
#include "core/nav.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct NavSession;
struct RunTrace;

typedef enum RenderOverlay {
    RENDER_AREAS = 0, /* areas, outlined, tinted by cluster */
    RENDER_LINKS,     /* reachabilities by travel type */
    RENDER_CLUSTERS,  /* cluster tints and portal areas */
    RENDER_HEAT,      /* travel time to the heat goal */
    RENDER_GRID,      /* grid passability for the class */
    RENDER_REGIONS,   /* the grid's hierarchical regions */
    RENDER_EXPLORED,  /* cells the last grid search opened and closed */
    RENDER_OBSTACLES, /* dropped obstacles and grid obstructions */
    RENDER_TRACES,    /* bots' hull traces of this tick */
    RENDER_MEMORY,    /* the selected bot's navigation memory and search */
    RENDER_TRAILS,    /* where each bot went lately, by travel type, fading (RenderInfo.history) */
    RENDER_OVERLAY_COUNT
} RenderOverlay;

#define RENDER_BIT(o) (1u << (o))

/* Where the camera is and what is shown. */
typedef struct RenderView {
    float center[2];    /* metres at the middle of the picture */
    float zoom;         /* pixels per metre */
    int level;          /* floor selector: -1 all floors seen from above; else a level index */
    uint32_t overlays;  /* RENDER_BIT(...) */
    int cls;            /* class for areas, links, heat and grid */
    int selected;       /* bot id, -1 none */
    bool heat_goal_set; /* else the selected bot's goal */
    float heat_goal[3];
    bool hud, legend, help, labels;
    /* A building footprint to preview: a house's placement rules checked
    ** there (green may be built, red with the reason) and the spawn points
    ** round it for the view's class (render_place.c). */
    bool place_on;
    float place[5];   /* x, y, width, depth (metres), angle (degrees) */
    char status[256]; /* one line under the HUD: query results, messages */
} RenderView;

/* What the HUD says beyond the simulation itself. */
typedef struct RenderInfo {
    struct NavSession *session;   /* live run: brains, faults, timings; NULL in a replay */
    const struct RunTrace *trace; /* replay: brains and faults from the record */
    uint32_t frame;               /* replay: the frame shown */
    const char *title;            /* map or record name */
    bool paused;
    float time_scale; /* 1 = real time */
    double fps;       /* 0: not shown */
    const char *help; /* the keys, shown when the view's help is on */
    const char *mode; /* "sim", "replay", ... for the HUD's first line */
    /* A body the user drives or a recording replays (script/player_body.h):
    ** drawn apart (an amber body in a white ring, labelled "player"). */
    bool has_player;
    uint32_t player; /* its bot id */
    /* The last seconds of every bot (render_history.h), kept by whoever
    ** steps the simulation: the trails overlay and the selected bot's
    ** plots of speed and state and its route choices. NULL: none shown. */
    const struct RenderHistory *history;
} RenderInfo;

typedef struct Renderer Renderer;

/* Loads the bitmap font (assets/). NULL with err set when it is missing. */
Renderer *render_create(NavError *err);
/* The same with the font file at font_path (NULL: the default search):
** for a library that knows where its own files are installed. */
Renderer *render_create_font(const char *font_path, NavError *err);
void render_destroy(Renderer *r);

/* Rows a fitted view leaves above the map for the HUD and below it for
** the legend, the scale bar and the north arrow. */
#define RENDER_FIT_TOP 64
#define RENDER_FIT_BOTTOM 64

/* A view of the whole world in a w x h picture, HUD and legend on. */
void render_view_fit(RenderView *v, const NavWorld *w, int width, int height);
/* The same for the part box = { x0, y0, x1, y1 } (metres) of it, in the
** middle of the rows between the HUD's and the legend's: at zoom pixels
** per metre, or (zoom 0) as large as it fits there. */
void render_view_box(RenderView *v, const NavWorld *w, const float box[4], float zoom, int width, int height);

/* Draw sim as v says into img (the whole canvas). NAV_E_NOMEM when some
** part (the cells, walls, areas, grid) could not be drawn for want of
** memory: the picture is then incomplete. */
NavStatus render_draw(Renderer *r, NavImage *img, NavSim *sim, const RenderView *v, const RenderInfo *info);

/* The floor selector's levels: heights at which stacked floors start. */
int render_level_count(Renderer *r, const NavWorld *w);
float render_level_z(Renderer *r, const NavWorld *w, int level);
/* The name of a level (its authored layer's), "" when out of range. */
const char *render_level_name(Renderer *r, const NavWorld *w, int level);
/* The level a body at height z stands on, -1 when the map has none. */
int render_level_at(Renderer *r, const NavWorld *w, float z);
/* A level given as a number from 1 or as a layer's name: its index, -1
** when the map has no such level. A map without levels has level 1 (all
** of it), returned as 0. */
int render_level_parse(Renderer *r, const NavWorld *w, const char *text);
/* The valid levels for a message: "1 (ground), 2 (second), ...". */
void render_level_list(Renderer *r, const NavWorld *w, char *out, size_t cap);
#define RENDER_LEVEL_LIST_MAX 768

/* Picture pixel <-> world metres for a w x h picture. */
void render_to_world(const RenderView *v, int width, int height, float px, float py, float *x, float *y);
void render_to_screen(const RenderView *v, int width, int height, float x, float y, float *px, float *py);

/* The bot under picture pixel (px, py), -1 when none. */
int render_pick_bot(const NavSim *sim, const RenderView *v, int width, int height, float px, float py);
/* The same among the bots on the storey the view shows (every bot when it
** shows all floors): the outlines of other storeys' bots are not picked. */
int render_pick_bot_shown(Renderer *r, const NavSim *sim, const RenderView *v, int width, int height, float px,
                          float py);

/* What is at world point (x, y) under the view's floor selector: floor,
** contents, area and cluster, grid cell, and the travel time from the
** selected bot, as one line into out. */
void render_query(Renderer *r, NavSim *sim, const RenderView *v, float x, float y, char *out, size_t cap);

/* Overlay names and keys for the help screen and the legend. */
const char *render_overlay_name(RenderOverlay o);

/* Forget cached layers (after a reload of the map, or when obstacles change). */
void render_invalidate(Renderer *r);

#ifdef __cplusplus
}
#endif

#endif
