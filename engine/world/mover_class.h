/*
** mover_class.h — passability classes: the kinds of mover a world is
** compiled for (one navcell grid bit and one area graph per class).
**
** Distances in metres, speeds in m/s, angles in degrees. The defaults are a
** human-sized bot: Quake III's step (18 units) is about 0.45 m; its barrier
** jump (33 units, 0.8 m) is raised to 1.2 m because our bots pull themselves
** onto what they jump at, and walls up to 2.2 m are climbed hand over hand
** (the Left 4 Dead move).
*/
#ifndef NAV_MOVER_CLASS_H
#define NAV_MOVER_CLASS_H

#include <stdbool.h>

#include "core/limits.h"
#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0 A.D. keeps one bit per class in a 16-bit navcell; we allow twice that. */
#define NAV_MAX_CLASSES NAV_LIMIT_CLASSES
#define NAV_CLASS_NAME_MAX 32

typedef struct NavClass {
    char name[NAV_CLASS_NAME_MAX];
    float radius;        /* clearance from walls */
    float height;        /* standing height */
    float crouch_height; /* height when crouched; 0 = cannot crouch */
    float step;          /* highest step walked up without jumping */
    float barrier_jump;  /* highest ledge reached with a jump */
    float climb;         /* highest wall climbed hand over hand; 0 = cannot */
    float max_fall;      /* highest safe drop */
    float jump_gap;      /* widest gap crossed with a running jump */
    float max_slope;     /* steepest walkable slope, degrees */
    float wade_depth;    /* deepest liquid crossed on foot */
    float run_speed;
    float crouch_speed;
    float swim_speed;   /* 0 = cannot swim */
    float ladder_speed; /* 0 = cannot use ladders */
} NavClass;

/* The built-in human class ("human"). */
NavClass class_defaults(void);

/* Check a class's values; err->field names the offending field (prefixed
** by field_prefix when given, e.g. "classes[2]"). */
NavStatus class_validate(const NavClass *c, const char *file, const char *field_prefix, NavError *err);

bool class_can_swim(const NavClass *c);
/* How far below a liquid's surface a swimmer's feet hang: the simulation
** floats a swimming body there (sim_move.c), so leaving deep water onto a
** floor more than a step above that takes a water jump. */
float class_swim_depth(const NavClass *c);
bool class_can_crouch(const NavClass *c);

/* Field table, shared by the Lua map loader, the CLI and the docs, so a new
** field is added in one place. */
typedef struct NavClassField {
    const char *name;
    size_t offset;  /* into NavClass, a float */
    float min, max; /* accepted range */
    const char *unit;
    const char *doc;
} NavClassField;

const NavClassField *class_fields(int *count);

#ifdef __cplusplus
}
#endif

#endif
