/*
** mover_class.c — passability classes: defaults, field table, validation.
*/
#include "world/mover_class.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define F(name, lo, hi, unit, doc)                         \
    {                                                      \
#name, offsetof(NavClass, name), lo, hi, unit, doc \
    }

static const NavClassField FIELDS[] = {
    F(radius, 0.0f, 64.0f, "m", "clearance kept from walls (0: a point)"),
    F(height, 0.05f, 64.0f, "m", "standing height"),
    F(crouch_height, 0.0f, 64.0f, "m", "height when crouched (0: cannot crouch)"),
    F(step, 0.0f, 16.0f, "m", "highest step walked up"),
    F(barrier_jump, 0.0f, 32.0f, "m", "highest ledge reached with a jump"),
    F(climb, 0.0f, 64.0f, "m", "highest wall climbed (0: cannot climb)"),
    F(max_fall, 0.0f, 1000.0f, "m", "highest safe drop"),
    F(jump_gap, 0.0f, 64.0f, "m", "widest gap crossed with a running jump"),
    F(max_slope, 0.0f, 89.0f, "deg", "steepest walkable slope"),
    F(wade_depth, 0.0f, 64.0f, "m", "deepest liquid crossed on foot"),
    F(run_speed, 0.01f, 1000.0f, "m/s", "running speed"),
    F(crouch_speed, 0.0f, 1000.0f, "m/s", "crouched speed"),
    F(swim_speed, 0.0f, 1000.0f, "m/s", "swimming speed (0: cannot swim)"),
    F(ladder_speed, 0.0f, 1000.0f, "m/s", "ladder climbing speed (0: no ladders)"),
};

#undef F

const NavClassField *class_fields(int *count)
{
    *count = (int)NAV_ARRAY_COUNT(FIELDS);
    return FIELDS;
}

NavClass class_defaults(void)
{
    NavClass c;
    memset(&c, 0, sizeof c);
    strcpy(c.name, "human");
    c.radius = 0.4f;
    c.height = 1.8f;
    c.crouch_height = 1.2f;
    c.step = 0.45f;
    c.barrier_jump = 1.2f;
    c.climb = 2.2f;
    c.max_fall = 4.0f;
    c.jump_gap = 3.0f;
    c.max_slope = 45.0f;
    c.wade_depth = 0.6f;
    c.run_speed = 6.0f;
    c.crouch_speed = 2.0f;
    c.swim_speed = 3.0f;
    c.ladder_speed = 2.5f;
    return c;
}

bool class_can_swim(const NavClass *c) { return c->swim_speed > 0.0f; }
float class_swim_depth(const NavClass *c) { return 0.5f * c->height; }
bool class_can_crouch(const NavClass *c) { return c->crouch_height > 0.0f && c->crouch_speed > 0.0f; }

static const char *join(char *buf, size_t cap, const char *prefix, const char *name)
{
    if (prefix && prefix[0]) snprintf(buf, cap, "%s.%s", prefix, name);
    else snprintf(buf, cap, "%s", name);
    return buf;
}

NavStatus class_validate(const NavClass *c, const char *file, const char *prefix, NavError *err)
{
    char field[128];
    if (!c->name[0])
        return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, join(field, sizeof field, prefix, "name"),
                             "a class needs a non-empty name");
    for (size_t i = 0; i < NAV_ARRAY_COUNT(FIELDS); i++) {
        float v = *(const float *)((const char *)c + FIELDS[i].offset);
        if (!isfinite(v) || v < FIELDS[i].min || v > FIELDS[i].max)
            return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, join(field, sizeof field, prefix, FIELDS[i].name),
                                 "expected a number from %g to %g %s, got %g", (double)FIELDS[i].min,
                                 (double)FIELDS[i].max, FIELDS[i].unit, (double)v);
    }
    if (c->crouch_height > c->height)
        return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, join(field, sizeof field, prefix, "crouch_height"),
                             "crouch height %g is above standing height %g", (double)c->crouch_height,
                             (double)c->height);
    if (c->barrier_jump > 0.0f && c->barrier_jump < c->step)
        return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, join(field, sizeof field, prefix, "barrier_jump"),
                             "barrier jump %g is below the step height %g", (double)c->barrier_jump, (double)c->step);
    if (c->climb > 0.0f && c->climb < c->barrier_jump)
        return nav_error_set(err, NAV_E_FORMAT, file, 0, 0, join(field, sizeof field, prefix, "climb"),
                             "climb height %g is below the barrier jump %g", (double)c->climb, (double)c->barrier_jump);
    return NAV_OK;
}
