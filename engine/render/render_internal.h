/*
** render_internal.h — the renderer's state, shared by its files:
** render.c (frames, camera, levels, picking, queries), render_world.c
** (cell layers, walls, entities, links), render_bots.c, render_trails.c,
** render_hud.c, render_panel.c, render_legend.c and render_labels.c
** (render_legend.h).
*/
#ifndef NAV_RENDER_INTERNAL_H
#define NAV_RENDER_INTERNAL_H

#include "area/area.h"
#include "render/font.h"
#include "render/render.h"
#include "render/render_graph.h"
#include "render/render_legend.h"
#include "route/route.h"

#define RENDER_MAX_LEVELS 16

/* A wall segment between two cells, in cell corner coordinates. */
typedef struct RenderWall {
    int16_t x0, y0, x1, y1;
} RenderWall;

/* What the cached cell picture was made from; any change remakes it. */
typedef struct CellKey {
    const NavWorld *w;
    int level;
    uint32_t overlays;
    int cls;
    float heat_goal[3];
    bool heat_on;
    uint32_t obstacles;   /* count and last id: obstacles came or went */
    uint64_t search_mark; /* sim tick, for the explored cells */
} CellKey;

struct Renderer {
    NavFont *font;
    /* The world per cell (1 pixel per cell, row 0 = north), with the cell
    ** overlays blended in; remade when its key changes. */
    NavImage *cells;
    CellKey key;
    bool key_valid;
    /* Per cell: the floor drawn (index into its column, -1 none). */
    int8_t *floor_of;
    /* Walls of the drawn floors. */
    RenderWall *walls;
    int wall_count, wall_cap;
    /* Floor selector levels. */
    const NavWorld *levels_of;
    float levels[RENDER_MAX_LEVELS];
    int level_layer[RENDER_MAX_LEVELS]; /* the layer naming each level */
    int level_count;
    /* Per picture column: the world cell column it shows (per frame). */
    int *col_cell;
    int col_cap;
    /* Scratch for the heat map: travel time per area. */
    uint32_t *area_time;
    uint32_t area_time_cap;
    /* What the cell picture shows, for the legend: the heights its floor
    ** shading spans, and the heat map's longest travel time. */
    float shade_lo, shade_hi;
    bool heat_drawn;
    float heat_seconds;
    /* The last frame's labels, where they went (tests read them), and its
    ** scale bar (scale_shown: the legend band was drawn). */
    LabelSet labels;
    Legend legend; /* the last frame's (tests read it) */
    RenderScaleBar scale;
    bool scale_shown;
    int band_y; /* the legend band's top row */
    /* Something of the frame being drawn was left out for want of memory
    ** (render_draw then fails rather than pass the picture off as whole). */
    bool nomem;
};

/* Things a frame drew, for its legend. */
enum {
    RENDER_THING_DOOR = 1u << 0,
    RENDER_THING_LOCKED = 1u << 1,
    RENDER_THING_ELEVATOR = 1u << 2,
    RENDER_THING_TELEPORTER = 1u << 3,
    RENDER_THING_JUMP_PAD = 1u << 4,
    RENDER_THING_CRATE = 1u << 5,
    RENDER_THING_SPAWN = 1u << 6,
    RENDER_THING_GOAL = 1u << 7,
    RENDER_THING_OBSTACLE = 1u << 8,
    RENDER_THING_BOT_GOAL = 1u << 9,
    RENDER_THING_STOREY_MARK = 1u << 10,
    RENDER_THING_ELSEWHERE = 1u << 11,
    RENDER_THING_PLAYER = 1u << 12,
    RENDER_THING_FAULTED = 1u << 13,
    RENDER_THING_ROUTE = 1u << 14,
};

#define RENDER_LEGEND_BRAINS 6

/* The floor shading's ends (render_world.c) and the ramp the legend shows. */
#define RENDER_GROUND_LO nav_rgba(78, 86, 78, 255)
#define RENDER_GROUND_HI nav_rgba(226, 224, 210, 255)

/* The frame being drawn. */
typedef struct Frame {
    Renderer *r;
    NavImage *img;
    NavSim *sim;
    const NavWorld *w;
    const RenderView *v;
    const RenderInfo *info;
    float cut;  /* floors above this height are not drawn */
    float base; /* bots below this height (a lower storey) are not drawn */
    /* What was drawn, for the legend: travel types (NAV_TFL_TYPE bits),
    ** RENDER_THING_* bits, and the brains of the bots drawn. */
    uint32_t travel, things;
    uint32_t trail_travel; /* travel types of the trails drawn (NAV_TFL_TYPE bits) */
    int brain_count;
    char brains[RENDER_LEGEND_BRAINS][32];
    NavColor brain_colors[RENDER_LEGEND_BRAINS];
} Frame;

/* render.c */
/* The storeys of a world: heights, lowest first, and the layer naming
** each; 0 when the world has fewer than two. */
int render_world_levels(const NavWorld *w, float z[RENDER_MAX_LEVELS], int layer[RENDER_MAX_LEVELS]);
/* The level a height belongs to among count levels, -1 when count is 0. */
int render_levels_at(const float *levels, int count, float z);
void frame_to_px(const Frame *f, float x, float y, float *px, float *py);
float frame_px(const Frame *f, float metres);
float render_cut(Renderer *r, const NavWorld *w, int level);
NavColor render_mix(NavColor a, NavColor b, float t);
NavColor render_cluster_tint(uint32_t c);
NavColor render_heat_color(float t, uint8_t alpha);
/* The graph and router of a class, or NULL (the view shows no areas then). */
const NavAreaGraph *frame_graph(const Frame *f, NavRouter **router);
/* Text with a dark outline; returns its width. */
int frame_text(const Frame *f, int x, int y, const char *text, NavColor c);
/* Text on a translucent dark box (lines of text); returns the box height. */
int frame_text_box(const Frame *f, int x, int y, const char *text, NavColor c);
void frame_rect_outline(const Frame *f, float x0, float y0, float x1, float y1, float thick, NavColor c);
void frame_box(const Frame *f, const float mins[3], const float maxs[3], NavColor fill, NavColor edge);
void frame_arrow(const Frame *f, float x0, float y0, float x1, float y1, float thick, NavColor c);
/* Does the world box [mn, mx] (x and y) show in the picture? */
bool frame_shows(const Frame *f, float x0, float y0, float x1, float y1);
/* A label for the frame's label set (render_legend.h), placed and drawn
** with the HUD. */
void frame_label(Frame *f, RenderLabelKind kind, float ax, float ay, float gap, int dx, int dy, const char *text,
                 const char *brief, NavColor c);
/* A travel type's link was drawn at picture points (x0, y0)-(x1, y1). */
void frame_drew_travel(Frame *f, int type, float x0, float y0, float x1, float y1);
/* The same for a piece of a trail. */
void frame_drew_trail(Frame *f, int type, float x0, float y0, float x1, float y1);

/* render_world.c */
void render_world_cells(Frame *f);
/* The contents of the floors the picture shows (bits 1 << NAV_CONTENTS_*),
** and whether it shows solid cells and floors of a lower storey. */
uint32_t render_world_contents_shown(const Frame *f, bool *solid, bool *below);
void render_world_walls(Frame *f);
void render_world_links(Frame *f);
void render_world_storey_links(Frame *f);
void render_world_areas(Frame *f);
void render_world_entities(Frame *f);
void render_world_obstacles(Frame *f);
void render_world_free(Renderer *r);

/* render_place.c */
void render_place(Frame *f);

/* render_bots.c */
void render_bots(Frame *f);
/* render_trails.c: the trails overlay, under the bots */
void render_trails(Frame *f);
/* render_memory.c */
void render_memory(Frame *f);
void render_bot_goal_of(const NavSim *sim, int bot, float goal[3], bool *has);

/* render_marks.c: brains' debug drawings and facing, over the bots */
void render_marks(Frame *f);

/* render_hud.c */
void render_hud(Frame *f);
/* A failed reload's error is written in this colour (a test finds it). */
#define RENDER_ERROR_TEXT nav_rgba(255, 80, 80, 255)
/* render_panel.c: the selected bot's panel, its text and under it the
** plots of its speed and state and its last route choices. Its size
** (false when no bot is selected); drawn, or (block) only kept free of
** labels. */
bool render_panel_size(const Frame *f, int *w, int *h);
void render_panel(const Frame *f, bool block);
/* The size of frame_text_box's box round text. */
void render_text_box_size(const Frame *f, const char *text, int *w, int *h);
/* The label naming the storey shown: its text and box in a picture width
** pixels wide (the box is opaque, so a test can draw the same). */
#define RENDER_LABEL_BOX nav_rgba(12, 14, 20, 255)
#define RENDER_LABEL_TEXT nav_rgba(255, 230, 140, 255)
typedef struct RenderStoreyLabel {
    char text[96];
    int x, y, w, h;
} RenderStoreyLabel;
void render_storey_label(Renderer *r, const NavWorld *w, int level, int width, RenderStoreyLabel *out);

/* The labels of the last frame drawn: how many, and each (render_legend.h:
** where it went, shown or dropped). For tests. */
int render_label_count(const Renderer *r);
const RenderLabel *render_label_at(const Renderer *r, int i);
/* The last frame's legend (empty when it had none). */
const Legend *render_legend(const Renderer *r);
/* The last frame's scale bar and north arrow; false when it had none
** (the legend was off). */
bool render_scale_bar(const Renderer *r, RenderScaleBar *out);

#endif
