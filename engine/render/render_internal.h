/*
** render_internal.h — the renderer's state, shared by its files:
** render.c (frames, camera, levels, picking, queries), render_world.c
** (cell layers, walls, entities, links), render_bots.c, render_hud.c.
*/
#ifndef NAV_RENDER_INTERNAL_H
#define NAV_RENDER_INTERNAL_H

#include "area/area.h"
#include "render/font.h"
#include "render/render.h"
#include "render/render_graph.h"
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
    /* Something of the frame being drawn was left out for want of memory
    ** (render_draw then fails rather than pass the picture off as whole). */
    bool nomem;
};

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

/* render_world.c */
void render_world_cells(Frame *f);
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
/* render_memory.c */
void render_memory(Frame *f);
void render_bot_goal_of(const NavSim *sim, int bot, float goal[3], bool *has);

/* render_marks.c: brains' debug drawings and facing, over the bots */
void render_marks(Frame *f);

/* render_hud.c */
void render_hud(Frame *f);
/* The label naming the storey shown: its text and box in a picture width
** pixels wide (the box is opaque, so a test can draw the same). */
#define RENDER_LABEL_BOX nav_rgba(12, 14, 20, 255)
#define RENDER_LABEL_TEXT nav_rgba(255, 230, 140, 255)
typedef struct RenderStoreyLabel {
    char text[96];
    int x, y, w, h;
} RenderStoreyLabel;
void render_storey_label(Renderer *r, const NavWorld *w, int level, int width, RenderStoreyLabel *out);

#endif
