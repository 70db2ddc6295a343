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

#ifdef __cplusplus
}
#endif

#endif
