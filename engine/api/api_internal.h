/*
** api_internal.h — what the files of the public C API share: the handle
** types behind include/navbot.h and the error helpers. navbot_api.c holds
** worlds, graphs, routes and queries; navbot_session.c sessions and
** pictures. Not installed.
*/
#ifndef API_INTERNAL_H
#define API_INTERNAL_H

#include <limits.h>
#include <stdbool.h>

#include "navbot.h"

#include "core/nav.h"
#include "render/render.h"
#include "script/session.h"
#include "sim/sim.h"
#include "world/world.h"

/* How far a query point may be from an area's floor. */
#define API_SNAP_RADIUS 2.0f
#define API_ERROR_MAX 1024

struct NavbotWorld {
    NavWorld *w;
    NavSim *sim; /* queries only: no bots */
    uint64_t rng;
    char **graph_file; /* per class: the .nav file loaded, else NULL */
    uint32_t *links;   /* route buffer, area_reach_count + 1 of the largest graph */
    uint32_t links_cap;
    char error[API_ERROR_MAX];
};

struct NavbotSession {
    NavbotWorld *world;
    NavSession *s;
    Renderer *renderer;     /* made on the first picture */
    char bundled[PATH_MAX]; /* "" when not found */
    char dirs[NAVBOT_MAX_PROJECT_DIRS][PATH_MAX];
    int dir_count;
    void (*log)(void *user, const char *line);
    void *log_user;
    char error[API_ERROR_MAX];
};

/* The engine's status as the API's. */
NavbotStatus api_status_of(const NavError *e);
/* Zero *err when not NULL. */
void api_error_clear(NavbotError *err);
/* Fill *err (when not NULL) from an engine error; returns its status. */
NavbotStatus api_error_from(NavbotError *err, const NavError *e);
/* Fill *err (when not NULL) with st, the field and a message; returns st. */
NavbotStatus api_error_set(NavbotError *err, NavbotStatus st, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Write a handle's error text (buf of API_ERROR_MAX); returns st. */
NavbotStatus api_fail(char *buf, NavbotStatus st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Write an engine error as a handle's error text; returns its status. */
NavbotStatus api_fail_nav(char *buf, const NavError *e);
/* All three coordinates finite. */
bool api_finite3(const float p[3]);

#endif
