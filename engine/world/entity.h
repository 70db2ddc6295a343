/*
** entity.h — things placed in a world that are not terrain: spawn points,
** elevators, teleporters, jump pads, doors, crates and goals.
**
** Every entity has an axis-aligned box (mins, maxs); point entities have
** mins == maxs. Volumes are the space the entity occupies or triggers in:
**   elevator    the platform's footprint (x, y) from the lowest stop to the
**               highest stop plus its thickness
**   teleporter  the trigger volume
**   jump_pad    the trigger volume
**   door        the door panel when closed
**   crate       the crate
** Navigation reads entities after the static graph is built, the way AAS
** adds elevator and teleporter links after load; see area/ and sim/.
*/
#ifndef NAV_ENTITY_H
#define NAV_ENTITY_H

#include <stdbool.h>

#include <cglm/cglm.h>

#include "core/limits.h"
#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A lift serving more floors than this is a building, not a map; a fixed
** array keeps entities flat and copyable. */
#define NAV_ELEVATOR_MAX_STOPS NAV_LIMIT_ELEVATOR_STOPS
#define NAV_ENTITY_NAME_MAX 32

typedef enum NavEntityType {
    NAV_ENTITY_SPAWN = 0,
    NAV_ENTITY_ELEVATOR,
    NAV_ENTITY_TELEPORTER,
    NAV_ENTITY_JUMP_PAD,
    NAV_ENTITY_DOOR,
    NAV_ENTITY_CRATE,
    NAV_ENTITY_GOAL,
    NAV_ENTITY_TYPE_COUNT
} NavEntityType;

typedef struct NavElevator {
    float stops[NAV_ELEVATOR_MAX_STOPS]; /* platform top heights, ascending */
    int stop_count;                      /* >= 2 */
    float speed;                         /* m/s */
    float wait;                          /* seconds at each stop */
    float thickness;                     /* platform slab, metres */
} NavElevator;

typedef struct NavTeleporter {
    vec3 dest;      /* where the mover lands (feet) */
    float dest_yaw; /* facing on arrival, degrees */
} NavTeleporter;

typedef struct NavJumpPad {
    vec3 target; /* where the launched mover lands (feet) */
    float apex;  /* height of the arc above the higher end */
} NavJumpPad;

typedef struct NavDoor {
    bool open;   /* state at load */
    float speed; /* m/s the panel slides */
} NavDoor;

typedef struct NavCrate {
    float mass; /* kg; pushing cost grows with it */
} NavCrate;

typedef struct NavGoal {
    char item[NAV_ENTITY_NAME_MAX]; /* what is there ("flag", "health", ...) */
} NavGoal;

typedef struct NavSpawn {
    int team; /* 0 = any */
} NavSpawn;

typedef struct NavEntity {
    NavEntityType type;
    char name[NAV_ENTITY_NAME_MAX]; /* unique in its world when non-empty */
    vec3 mins, maxs;
    float yaw; /* facing, degrees, 0 = east, counter-clockwise */
    union {
        NavElevator elevator;
        NavTeleporter teleporter;
        NavJumpPad jump_pad;
        NavDoor door;
        NavCrate crate;
        NavGoal goal;
        NavSpawn spawn;
    } u;
} NavEntity;

/* "spawn", "elevator", ... and back; -1 when unknown. */
const char *entity_type_name(NavEntityType t);
int entity_type_from_name(const char *name);

/* True for the types that occupy a volume rather than a point. */
bool entity_is_volume(NavEntityType t);

/* Centre of the bottom face (the point for point entities). */
void entity_origin(const NavEntity *e, vec3 out);

/* Self-consistency of one entity: finite numbers, mins <= maxs, stops
** ascending, positive speeds. field_prefix names it in err ("entities[3]").
** Placement against terrain and other entities is checked by the world. */
NavStatus entity_validate(const NavEntity *e, const char *file, const char *field_prefix, NavError *err);

/* Boxes overlap with positive volume (touching faces do not count). */
bool entity_boxes_overlap(const NavEntity *a, const NavEntity *b);

#ifdef __cplusplus
}
#endif

#endif
