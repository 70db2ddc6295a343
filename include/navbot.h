/*
** navbot.h — the public C API of navbot, a bot navigation engine: load a
** map, compile its area graph per mover class, route and trace, and run a
** simulation whose bots are driven by Lua brains or by the caller.
**
** Link with `pkg-config --cflags --libs navbot` (libnavbot.so, or
** libnavbot.a with `pkg-config --static`). This header is the whole API:
** libnavbot.so exports nothing else.
**
** MANUAL
**
** Handles. Two opaque handles:
**   NavbotWorld    a loaded map: its cells, floors, entities and mover
**                  classes, plus one area graph, router and navcell grid
**                  per class, built on first use (or compiled/loaded on
**                  request) and kept until the world is destroyed.
**   NavbotSession  a simulation on a world: bots with bodies that move by
**                  their class's physics, each driven by a Lua brain or by
**                  the caller's controls, stepped at a fixed tick.
** A session reads its world and never changes it; the world must outlive
** every session made on it. Handles are not thread-safe: use one from one
** thread at a time (two worlds in two threads are fine: the only global
** is the allocator, navbot_set_allocator, set once before anything else).
**
** Descs. Every creating function takes a desc struct whose zero value
** means "the defaults" (`&(NavbotSessionDesc){0}`, or NULL): set only the
** fields you need, in C99 designated-initialiser style.
**
** Status and errors. Every function that can fail returns a NavbotStatus
** (NAVBOT_OK is 0). Creating functions take a NavbotError* (may be NULL)
** that receives the status and a message naming the file, line and field
** the way navbot's own errors do ("maps/x.lua:12: classes[1].radius: must
** be > 0"). Functions on a handle keep their last error on the handle:
** navbot_world_error / navbot_session_error return its text ("" after a
** success). Bad input (NULL pointers, out-of-range ids, points that are not
** finite, missing files) is a status, never a crash or an abort; the
** library never prints and never exits.
**
** Ownership. The caller owns what it creates and destroys it with the
** matching *_destroy (NULL is fine there). Strings the library returns
** belong to the handle they came from and stay valid until the next call
** that changes that handle (a step, a query on the same handle) or its
** destruction; copy them to keep them. Output arrays are the caller's
** buffers with their capacity; functions report how many items there are
** in total, so a small buffer can be sized and the call repeated.
**
** Units. Metres, seconds, degrees. Top-down: x east, y north, z up. A
** point on a floor is where a mover's feet stand. Points given to queries
** are taken in the area under them, else in the nearest area within 2 m
** (a point with no area that near is NAVBOT_E_NO_AREA). A point's z picks
** the floor: the highest floor at or below z + 0.25; navbot_world_floor_z
** gives the lowest floor under (x, y) for callers that have no height.
**
** Lua. Brains are Lua 5.4 scripts (docs/brains.md): a brain given by name
** ("runner") is bots/NAME.lua in one of the session's project folders or
** in navbot's bundled folder; a brain given by path ("mygame/bots/x.lua")
** must lie in the bots/ folder of a project folder (one that also holds
** lua/ for its modules). navbot's bundled lua/ and bots/ are found next to
** the library itself (<libdir>/../share/navbot when installed), never in
** the current directory.
**
** STEP BY STEP
**   NavbotError err;
**   NavbotWorld *w;
**   if (navbot_world_load("maps/arena.lua", NULL, &w, &err)) { puts(err.text); return 1; }
**   NavbotRoute r = { .points = buf, .cap = 64 };
**   navbot_route(w, &(NavbotRouteQuery){ .from = {2, 2, 0}, .to = {30, 20, 0} }, &r);
**   NavbotSession *s;
**   navbot_session_create(w, &(NavbotSessionDesc){ .seed = 1 }, &s, &err);
**   int id;
**   navbot_session_add_bot(s, &(NavbotBotDesc){ .brain = "runner", .at = {2, 2, 0},
**                                               .goal = {30, 20, 0}, .has_goal = true }, &id);
**   navbot_session_step(s, 300);
**   NavbotBotState st;
**   navbot_session_bot(s, id, &st);      st.arrived, st.pos, st.faulted, st.error
**   navbot_session_png(s, "run.png", 0);
**   navbot_session_destroy(s);
**   navbot_world_destroy(w);
**
** DOES NOT: open windows, read input devices, or run bots in parallel; keep
** global state other than the allocator; print; exit. Maps and brains run
** in navbot's Lua sandbox (no io, os or loading of files outside the
** project folders).
*/
#ifndef NAVBOT_H
#define NAVBOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NAVBOT_BUILD) && defined(__GNUC__)
#define NAVBOT_API __attribute__((visibility("default")))
#else
#define NAVBOT_API
#endif

#define NAVBOT_VERSION "0.1.0"

/* {======= status and errors ======= */

typedef enum NavbotStatus {
    NAVBOT_OK = 0,
    NAVBOT_E_PARAM,     /* a bad argument: NULL, an id or class out of range, a number not finite */
    NAVBOT_E_IO,        /* a file could not be read or written */
    NAVBOT_E_FORMAT,    /* a map, script or compiled graph is malformed (the text says where) */
    NAVBOT_E_STALE,     /* a compiled graph belongs to another version of the map or class */
    NAVBOT_E_NOMEM,     /* out of memory, or a Lua memory cap */
    NAVBOT_E_NO_AREA,   /* a point lies on no area of the class (nor within 2 m of one) */
    NAVBOT_E_NO_ROUTE,  /* no route or path joins the two points with the flags given */
    NAVBOT_E_BRAIN,     /* a brain could not be loaded (the bot is added, faulted) */
    NAVBOT_E_FULL,      /* no room: a bot cannot be placed there, too many bots */
    NAVBOT_STATUS_COUNT
} NavbotStatus;

/* Where a creating function failed. text is the whole message
** ("file:line:column: field: message", unknown parts left out); file,
** line and field are its parts ("" / 0 when unknown). */
typedef struct NavbotError {
    NavbotStatus status;
    char file[256];
    int line;
    char field[128];
    char text[1024];
} NavbotError;

/* "ok", "bad parameter", ...; "unknown status" out of range. Static text. */
NAVBOT_API const char *navbot_status_name(NavbotStatus status);

/* NAVBOT_VERSION of the library actually linked. Static text. */
NAVBOT_API const char *navbot_version(void);

/* The path of `relative` ("maps/arena.lua", "bots", "" for the folder
** itself) inside navbot's bundled folder (lua/, bots/, maps/, assets/),
** found next to the library: <libdir>/../share/navbot when installed, the
** source tree for a build in bin/<config>/. NAVBOT_E_IO when the folder
** is not found, NAVBOT_E_PARAM for NULL or a buffer too small (cap bytes,
** with the terminating zero). */
NAVBOT_API NavbotStatus navbot_bundled_path(const char *relative, char *out, size_t cap);

/* }======= */

/* {======= memory ======= */

/* Where navbot gets its memory: every allocation of the library, its Lua
** states included, calls fn. A zeroed allocator (the default) is the C
** library's malloc, realloc and free. fn works like realloc:
**   fn(user, NULL, n)   allocate n > 0 bytes
**   fn(user, p, n)      resize p to n > 0 bytes (p left as it was on failure)
**   fn(user, p, 0)      free p (never NULL), return NULL
** and returns NULL when it cannot. A failed allocation is never a crash:
** the call that needed it returns NAVBOT_E_NOMEM (a brain whose Lua state
** cannot allocate is faulted, the others go on) and the handle is left as
** it was before the call. */
typedef struct NavbotAllocator {
    void *(*fn)(void *user, void *ptr, size_t size);
    void *user;
} NavbotAllocator;

/* Make a the allocator of the whole process (NULL or zeroed: the C
** library). Call it before creating any world or session: a block must be
** freed by the allocator that made it, so a change while blocks of the
** current one are in use is refused with NAVBOT_E_PARAM (err says how
** many), as is a user pointer without fn. Not thread-safe: set it before
** other threads use navbot. */
NAVBOT_API NavbotStatus navbot_set_allocator(const NavbotAllocator *a, NavbotError *err);

/* The allocator in force (fn NULL for the C library). */
NAVBOT_API NavbotAllocator navbot_get_allocator(void);

/* }======= */

/* {======= travel flags ======= */

/* What a route may use: one bit per travel type, then the contents it may
** enter. 0 in a query means NAVBOT_TRAVEL_DEFAULT. The same bits as the
** Lua API's integer flags (docs/lua-api.md, "Travel flags"). */
#define NAVBOT_TRAVEL_WALK           (1u << 0)
#define NAVBOT_TRAVEL_CROUCH         (1u << 1)
#define NAVBOT_TRAVEL_BARRIER_JUMP   (1u << 2)
#define NAVBOT_TRAVEL_WALK_OFF_LEDGE (1u << 3)
#define NAVBOT_TRAVEL_JUMP           (1u << 4)
#define NAVBOT_TRAVEL_CLIMB          (1u << 5)
#define NAVBOT_TRAVEL_LADDER         (1u << 6)
#define NAVBOT_TRAVEL_SWIM           (1u << 7)
#define NAVBOT_TRAVEL_WATER_JUMP     (1u << 8)
#define NAVBOT_TRAVEL_TELEPORT       (1u << 9)
#define NAVBOT_TRAVEL_ELEVATOR       (1u << 10)
#define NAVBOT_TRAVEL_JUMP_PAD       (1u << 11)
#define NAVBOT_TRAVEL_WATER          (1u << 16)
#define NAVBOT_TRAVEL_LAVA           (1u << 17)
#define NAVBOT_TRAVEL_SLIME          (1u << 18)
#define NAVBOT_TRAVEL_DONOTENTER     (1u << 19)
#define NAVBOT_TRAVEL_FLY            (1u << 20) /* no penalty for entering ledge areas */
#define NAVBOT_TRAVEL_DEFAULT        (0xFFFu | NAVBOT_TRAVEL_WATER)

/* Parse comma-separated names ("walk,crouch,water"; the names of the Lua
** API, and "default") into *flags. NAVBOT_E_PARAM for an unknown or empty
** name, with the bad name and the list of good ones in err. */
NAVBOT_API NavbotStatus navbot_travel_flags(const char *names, uint32_t *flags, NavbotError *err);

/* The name of travel type t (0 = "walk" .. 11 = "jump_pad"), NULL out of
** range. Static text. */
NAVBOT_API const char *navbot_travel_name(int t);

/* }======= */

/* {======= worlds ======= */

typedef struct NavbotWorld NavbotWorld;

/* Zero means default. */
typedef struct NavbotWorldDesc {
    uint64_t seed;                 /* navbot_world_random_point's generator */
    size_t lua_memory_limit;       /* for a Lua map's script; default 64 MiB */
    uint64_t lua_instruction_limit;/* default 200 million */
    size_t route_cache_bytes;      /* per class's router; default 16 MiB */
} NavbotWorldDesc;

/* Load a map file: a native Lua map (.lua, docs/maps.md), a Moving AI
** grid (.map) or a triangle mesh (.obj, with its sidecar NAME.obj.lua). On success *out is the world (destroy it with
** navbot_world_destroy); on failure *out is NULL and err says why
** (NAVBOT_E_IO for a missing file, NAVBOT_E_FORMAT naming file:line and
** field for a bad map). desc may be NULL. */
NAVBOT_API NavbotStatus navbot_world_load(const char *path, const NavbotWorldDesc *desc, NavbotWorld **out,
                                          NavbotError *err);

/* The same from a Lua map's source text (len bytes; len 0: strlen). name
** is used in messages and as the world's source (NULL: "map"). The text
** is copied; the caller keeps its buffer. */
NAVBOT_API NavbotStatus navbot_world_load_string(const char *source, size_t len, const char *name,
                                                 const NavbotWorldDesc *desc, NavbotWorld **out, NavbotError *err);

/* Free the world, its area graphs, routers and grid. Every session made
** on it must be destroyed first. NULL is fine. */
NAVBOT_API void navbot_world_destroy(NavbotWorld *w);

/* The text of the last error of a call on w ("" when the last call
** succeeded, or w is NULL). Valid until the next call on w. */
NAVBOT_API const char *navbot_world_error(const NavbotWorld *w);

typedef struct NavbotWorldInfo {
    const char *name;              /* the map's name; valid while w lives */
    const char *source;            /* the file it came from */
    int width, height;             /* cells */
    float cell_size;               /* metres */
    float size[2];                 /* metres: width * cell_size, height * cell_size */
    int class_count;               /* mover classes */
    int entity_count;
} NavbotWorldInfo;

NAVBOT_API NavbotStatus navbot_world_info(const NavbotWorld *w, NavbotWorldInfo *out);

/* Class index i's name (NULL out of range), and the index of a class by
** name (-1 when there is none; NULL or "" names class 0). */
NAVBOT_API const char *navbot_world_class_name(const NavbotWorld *w, int i);
NAVBOT_API int navbot_world_find_class(const NavbotWorld *w, const char *name);

/* The point of the entity called name (a spawn, a goal, ...): the centre
** of its bottom face. NAVBOT_E_PARAM when there is no such entity. */
NAVBOT_API NavbotStatus navbot_world_entity_point(NavbotWorld *w, const char *name, float out[3]);

/* The height to use for (x, y) when none is known: the lowest floor of
** the column that belongs to an area of class cls, else its lowest floor.
** NAVBOT_E_PARAM off the map or in a column that is solid. */
NAVBOT_API NavbotStatus navbot_world_floor_z(NavbotWorld *w, int cls, float x, float y, float *z);

/* }======= */

/* {======= area graphs ======= */

typedef struct NavbotGraphInfo {
    uint32_t areas, links, clusters, portals;
    double compile_ms;             /* 0 for a graph loaded from a file */
    bool loaded;                   /* came from navbot_world_load_graph */
} NavbotGraphInfo;

/* Build class cls's area graph now (with the links of elevators,
** teleporters and jump pads) unless it is built already, and describe it
** (out may be NULL). Queries build it on first use anyway; this is for
** doing it at load time, and for the numbers. */
NAVBOT_API NavbotStatus navbot_world_compile(NavbotWorld *w, int cls, NavbotGraphInfo *out);

/* Write class cls's graph (built if needed) to a compiled .nav file. */
NAVBOT_API NavbotStatus navbot_world_save_graph(NavbotWorld *w, int cls, const char *path);

/* Use the compiled .nav file at path as class cls's graph instead of
** compiling it. Refused (NAVBOT_E_STALE) when it was compiled from another
** version of the map or class, NAVBOT_E_FORMAT when it is not a graph,
** NAVBOT_E_PARAM when the class's graph is in use already (a query or
** navbot_world_compile built it: load before querying). Sessions created
** afterwards take a copy of it. */
NAVBOT_API NavbotStatus navbot_world_load_graph(NavbotWorld *w, int cls, const char *path);

/* }======= */

/* {======= routes, paths, traces, sampling ======= */

/* Zero means default. */
typedef struct NavbotRouteQuery {
    int cls;                       /* class index */
    float from[3], to[3];          /* feet points (see Units above) */
    uint32_t flags;                /* NAVBOT_TRAVEL_*; 0: NAVBOT_TRAVEL_DEFAULT */
} NavbotRouteQuery;

typedef struct NavbotWaypoint {
    float pos[3];
    int travel;                    /* how the move that ends here travels: 0..11 (navbot_travel_name);
                                   ** -1 for the start point and for walks inside one area */
} NavbotWaypoint;

typedef struct NavbotRoute {
    NavbotWaypoint *points;        /* (in) caller's buffer, may be NULL with cap 0 */
    int cap;                       /* (in) */
    int count;                     /* (out) waypoints the route has; at most cap were written */
    float time;                    /* (out) seconds from `from` to `to` (the goal point, not its area) */
    int links;                     /* (out) area-graph links taken */
    float from[3], to[3];          /* (out) the two points as placed on their areas' floors */
} NavbotRoute;

/* The fastest route of class q->cls from q->from to q->to with q->flags:
** waypoints from the start point over each link's start and end to the
** goal point, and the travel time in seconds (the router's cost model,
** docs/architecture.md, plus the walk inside the goal's area to the
** point). NAVBOT_E_NO_AREA when a point is on no area (nor within 2 m),
** NAVBOT_E_NO_ROUTE when none joins them (out->count 0). The first query
** of a class builds its graph and router; later ones allocate nothing of
** their own (the router's caches grow within route_cache_bytes). */
NAVBOT_API NavbotStatus navbot_route(NavbotWorld *w, const NavbotRouteQuery *q, NavbotRoute *out);

/* navbot_route's time alone. */
NAVBOT_API NavbotStatus navbot_route_time(NavbotWorld *w, const NavbotRouteQuery *q, float *seconds);

typedef struct NavbotGridPath {
    float (*points)[2];            /* (in) caller's buffer of x, y metres (cell centres); may be NULL with cap 0 */
    int cap;                       /* (in) */
    int count;                     /* (out) the start, every turn, the end; at most cap written */
    float length;                  /* (out) metres */
    bool goal_moved;               /* (out) the goal was not reachable: the path ends at the reachable cell nearest it */
    bool start_moved;              /* (out) the start was blocked: the first leg steps out of it */
} NavbotGridPath;

/* A path on class cls's navcell grid (8-connected, JPS, optimal under the
** grid's rule) from (x0, y0) to (x1, y1), smoothed to straight legs when
** smooth is true. NAVBOT_E_NO_ROUTE when the class has nowhere to go from
** the start. The grid is the world's static one plus its entities'
** starting state. */
NAVBOT_API NavbotStatus navbot_grid_path(NavbotWorld *w, int cls, float x0, float y0, float x1, float y1,
                                         bool smooth, NavbotGridPath *out);

typedef struct NavbotTrace {
    float fraction;                /* 0..1 of the move made */
    float end[3];                  /* where the box stopped */
    float normal[3];               /* the face hit (an axis), zero when no hit */
    bool hit;
    bool start_solid;              /* the box overlapped something at the start */
    bool world;                    /* what was hit is the level, not a solid entity */
} NavbotTrace;

/* Sweep the box [mins, maxs] (relative to start) from start by delta
** against the level and the solid entities in their starting state.
** NAVBOT_E_PARAM for an empty box or numbers that are not finite. */
NAVBOT_API NavbotStatus navbot_trace(NavbotWorld *w, const float mins[3], const float maxs[3], const float start[3],
                                     const float delta[3], NavbotTrace *out);

/* A random point on the floor of an area of class cls that a route with
** default flags reaches from `near`, within `radius` metres of it
** (horizontally; 0: anywhere). The world's own generator (desc.seed)
** picks it, so a run of calls repeats. NAVBOT_E_NO_AREA when near is on no
** area, NAVBOT_E_NO_ROUTE when nothing reachable lies in the radius. */
NAVBOT_API NavbotStatus navbot_world_random_point(NavbotWorld *w, int cls, const float near[3], float radius,
                                                  float out[3]);

/* }======= */

/* {======= sessions ======= */

typedef struct NavbotSession NavbotSession;

#define NAVBOT_MAX_PROJECT_DIRS 4

/* Zero means default. */
typedef struct NavbotSessionDesc {
    uint64_t seed;                 /* the world RNG and every brain's math.random; default 0 */
    int tick_hz;                   /* default 30 */
    /* Folders holding bots/ and lua/, searched in order before navbot's
    ** bundled ones (NULL ends the list). Copied. */
    const char *project_dirs[NAVBOT_MAX_PROJECT_DIRS];
    size_t memory_limit;           /* per brain file's Lua state; default 64 MiB */
    uint64_t instructions_per_tick;/* per bot; default 1,000,000 */
    /* Brain output: print() lines, faults with their traceback, reloads.
    ** NULL: dropped. Called during navbot_session_step. */
    void (*log)(void *user, const char *line);
    void *log_user;
} NavbotSessionDesc;

/* A simulation on w: no bots yet, tick 0. The session compiles its own
** area graphs (or copies those loaded with navbot_world_load_graph). w
** must outlive it. */
NAVBOT_API NavbotStatus navbot_session_create(NavbotWorld *w, const NavbotSessionDesc *desc, NavbotSession **out,
                                              NavbotError *err);

/* Free the session, its bots and their Lua states. NULL is fine. */
NAVBOT_API void navbot_session_destroy(NavbotSession *s);

/* The last error of a call on s ("" after a success). */
NAVBOT_API const char *navbot_session_error(const NavbotSession *s);

/* Zero means default. */
typedef struct NavbotBotDesc {
    const char *brain;             /* a name ("runner") or a path (".../bots/x.lua"); NULL: none, the
                                   ** caller drives it with navbot_session_set_controls */
    int cls;                       /* class index */
    float at[3];                   /* feet; dropped onto the floor within a step below */
    float yaw;                     /* degrees, 0 = east */
    bool has_goal;
    float goal[3];                 /* the bot's goal (brains read it with bot:goal()) */
    float goal_radius;             /* metres; 0: the simulation's default */
} NavbotBotDesc;

/* Add a bot standing at desc->at, give it its goal, then its brain (so
** the brain's spawn sees the goal). *id gets its id (0, 1, ... in order)
** or -1. NAVBOT_E_FULL when it cannot stand there (in a wall, over a
** void); NAVBOT_E_PARAM for a bad class or numbers; NAVBOT_E_BRAIN when
** the brain fails to load: the bot is added all the same (*id is set),
** stands still and is faulted with the reason in its state. */
NAVBOT_API NavbotStatus navbot_session_add_bot(NavbotSession *s, const NavbotBotDesc *desc, int *id);

/* Controls for a bot without a brain (or to override one for the next
** tick: a brain sets its bot's controls again every tick). They hold
** until changed. */
typedef struct NavbotControls {
    float move[2];                 /* wished horizontal direction; length <= 1 scales the speed */
    bool jump, crouch, use;
} NavbotControls;

NAVBOT_API NavbotStatus navbot_session_set_controls(NavbotSession *s, int id, const NavbotControls *c);

/* Add a goal to the bot's queue (reached within radius; 0: default).
** NAVBOT_E_FULL when its queue (16) is full. */
NAVBOT_API NavbotStatus navbot_session_add_goal(NavbotSession *s, int id, const float goal[3], float radius);

/* Run ticks ticks: every brain thinks, then everything moves. A brain's
** error faults its bot only. */
NAVBOT_API NavbotStatus navbot_session_step(NavbotSession *s, int ticks);

NAVBOT_API int navbot_session_bot_count(const NavbotSession *s);
NAVBOT_API uint64_t navbot_session_tick(const NavbotSession *s);
NAVBOT_API double navbot_session_time(const NavbotSession *s);   /* seconds simulated */
NAVBOT_API uint64_t navbot_session_hash(const NavbotSession *s); /* the run's trace hash */

typedef struct NavbotBotState {
    int id, cls;
    float pos[3], vel[3];
    float yaw;
    bool on_ground, in_water, on_ladder, crouched;
    bool arrived;                  /* reached its goals and has none left */
    int goals_reached, goals_left;
    double arrival_time;           /* seconds when it arrived; < 0 before */
    float stuck_time;              /* seconds of the current stuck spell */
    double distance;               /* metres travelled */
    bool faulted;                  /* its brain failed (or failed to load) */
    const char *error;             /* why, with the traceback; NULL when not faulted */
    const char *brain;             /* its brain's name, "" for none */
    const char *state;             /* the text its brain last showed (bot:say), "" for none */
} NavbotBotState;

/* Bot id's state after the last tick. The strings stay valid until the
** next step or the session's end. */
NAVBOT_API NavbotStatus navbot_session_bot(const NavbotSession *s, int id, NavbotBotState *out);

/* The picture the window would show now (the whole map, HUD and legend),
** width pixels wide (0: 1280; 64 to 8192), to a PNG file. */
NAVBOT_API NavbotStatus navbot_session_png(NavbotSession *s, const char *path, int width);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAVBOT_H */
