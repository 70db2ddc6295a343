/*
** entity.c — entity names and self-consistency checks.
*/
#include "world/entity.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const TYPE_NAMES[NAV_ENTITY_TYPE_COUNT] = {
    "spawn", "elevator", "teleporter", "jump_pad", "door", "crate", "goal",
};

const char *entity_type_name(NavEntityType t)
{
    return (unsigned)t < NAV_ENTITY_TYPE_COUNT ? TYPE_NAMES[t] : "unknown";
}

int entity_type_from_name(const char *name)
{
    for (int i = 0; i < NAV_ENTITY_TYPE_COUNT; i++)
        if (strcmp(name, TYPE_NAMES[i]) == 0) return i;
    return -1;
}

bool entity_is_volume(NavEntityType t)
{
    return t == NAV_ENTITY_ELEVATOR || t == NAV_ENTITY_TELEPORTER || t == NAV_ENTITY_JUMP_PAD || t == NAV_ENTITY_DOOR ||
           t == NAV_ENTITY_CRATE;
}

void entity_origin(const NavEntity *e, vec3 out)
{
    out[0] = 0.5f * (e->mins[0] + e->maxs[0]);
    out[1] = 0.5f * (e->mins[1] + e->maxs[1]);
    out[2] = e->mins[2];
}

static bool finite3(const vec3 v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

#define FAIL(sub, ...)                                                                                                \
    do {                                                                                                              \
        char field_[128];                                                                                             \
        snprintf(field_, sizeof field_, "%s%s%s", prefix ? prefix : "", (prefix && prefix[0] && (sub)[0]) ? "." : "", \
                 sub);                                                                                                \
        return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, field_, __VA_ARGS__);                                     \
    } while (0)

NavStatus entity_validate(const NavEntity *e, const char *file, const char *prefix, NavError *err)
{
    if ((unsigned)e->type >= NAV_ENTITY_TYPE_COUNT) FAIL("type", "unknown entity type %d", (int)e->type);
    if (!finite3(e->mins) || !finite3(e->maxs)) FAIL("position", "coordinates must be finite numbers");
    if (!isfinite(e->yaw)) FAIL("yaw", "must be a finite number");
    switch (e->type) {
    case NAV_ENTITY_ELEVATOR: {
        const NavElevator *el = &e->u.elevator;
        if (el->stop_count < 2 || el->stop_count > NAV_ELEVATOR_MAX_STOPS)
            FAIL("stops", "an elevator needs 2 to %d stops, got %d", NAV_ELEVATOR_MAX_STOPS, el->stop_count);
        for (int i = 0; i < el->stop_count; i++) {
            if (!isfinite(el->stops[i])) FAIL("stops", "stop %d is not a finite number", i + 1);
            if (i > 0 && el->stops[i] <= el->stops[i - 1])
                FAIL("stops", "stops must rise: stop %d (%g) is not above stop %d (%g)", i + 1, (double)el->stops[i], i,
                     (double)el->stops[i - 1]);
        }
        if (!(el->speed > 0.0f) || !isfinite(el->speed))
            FAIL("speed", "must be a positive number, got %g", (double)el->speed);
        if (!(el->wait >= 0.0f) || !isfinite(el->wait))
            FAIL("wait", "must be zero or more seconds, got %g", (double)el->wait);
        if (!(el->thickness > 0.0f) || !isfinite(el->thickness))
            FAIL("thickness", "must be a positive number, got %g", (double)el->thickness);
        break;
    }
    case NAV_ENTITY_TELEPORTER:
        if (!finite3(e->u.teleporter.dest)) FAIL("dest", "must be three finite numbers");
        if (!isfinite(e->u.teleporter.dest_yaw)) FAIL("dest_yaw", "must be a finite number");
        break;
    case NAV_ENTITY_JUMP_PAD:
        if (!finite3(e->u.jump_pad.target)) FAIL("target", "must be three finite numbers");
        if (!(e->u.jump_pad.apex > 0.0f) || !isfinite(e->u.jump_pad.apex))
            FAIL("apex", "must be a positive height, got %g", (double)e->u.jump_pad.apex);
        break;
    case NAV_ENTITY_DOOR:
        if (!(e->u.door.speed > 0.0f) || !isfinite(e->u.door.speed))
            FAIL("speed", "must be a positive number, got %g", (double)e->u.door.speed);
        break;
    case NAV_ENTITY_CRATE:
        if (!(e->u.crate.mass > 0.0f) || !isfinite(e->u.crate.mass))
            FAIL("mass", "must be a positive number, got %g", (double)e->u.crate.mass);
        break;
    default: break;
    }
    bool volume = entity_is_volume(e->type);
    for (int k = 0; k < 3; k++) {
        if (e->mins[k] > e->maxs[k]) FAIL("size", "box has negative size on axis %c", "xyz"[k]);
        if (volume && k < 2 && e->maxs[k] - e->mins[k] <= 0.0f)
            FAIL("size", "a %s needs a positive width and depth", entity_type_name(e->type));
    }

    return NAV_OK;
}

#undef FAIL

bool entity_boxes_overlap(const NavEntity *a, const NavEntity *b)
{
    for (int k = 0; k < 3; k++) {
        if (a->maxs[k] <= b->mins[k] || b->maxs[k] <= a->mins[k]) return false;
    }
    return true;
}
