/*
** snapshot.h — one picture of a simulation as the window shows it, to a
** PNG file: what headless runs, failing scenarios and screenshots write.
*/
#ifndef NAV_SNAPSHOT_H
#define NAV_SNAPSHOT_H

#include "core/nav.h"
#include "render/render.h"

#ifdef __cplusplus
extern "C" {
#endif

struct NavSession;

/* A picture size for a world: `width` wide, tall enough for the whole map
** and the HUD and legend. */
void render_picture_size(const NavWorld *w, int width, int *out_w, int *out_h);

/* Draw and write. NAV_OK, or an error naming the path. */
NavStatus render_png(Renderer *r, NavSim *sim, const RenderView *v, const RenderInfo *info, int width, int height,
                     const char *path, NavError *err);

/* The whole map of a live session, bot focus_bot selected with its panel
** (-1: none), 1280 pixels wide. Makes and frees its own renderer. */
NavStatus render_session_png(struct NavSession *s, int focus_bot, const char *path, NavError *err);

/* Where and when a run went wrong, marked over its picture: a red ring
** with cross hairs round the place (when at_place) and a box saying the
** tick, the time and what went wrong. */
typedef struct RenderFailureMark {
    bool at_place;
    float pos[3]; /* metres */
    uint64_t tick;
    double time;    /* seconds simulated */
    char text[200]; /* one line; cut to fit the picture */
} RenderFailureMark;

#define RENDER_FAILURE_RED nav_rgba(255, 40, 70, 255)

/* The picture render_session_png writes, with mark over it when not NULL,
** as a new image. NULL with err set. */
NavImage *render_session_image(struct NavSession *s, int focus_bot, const RenderFailureMark *mark, NavError *err);

#ifdef __cplusplus
}
#endif

#endif
