/*
** route_memory.h — what one bot knows of the area graph, and routing
** within it: navigation memories learned by watching bodies move, and a
** goal-to-start search spread over ticks.
**
** A NAVIGATION MEMORY is parallel to the area graph: a bit per area (known
** or not) and, per link, when the bot last saw it taken (0: never). A bot
** learns a link when it crosses it itself or sees another body cross it
** (sim_learn.c decides what is seen); it learns an area when it stands in
** it, sees a body in it, or learns a link into or out of it. The links a
** memory holds into one area are bounded (links_per_area, default 8, as
** many ways into a room as anyone remembers): learning one more forgets
** the one into that area seen longest ago (ties: the lowest link id),
** which keeps what is confirmed often and makes the rule deterministic.
** Memory per bot is 4 bytes per link and 9 bits per area; a memory may be
** shared by several bots (a team's): they then learn into one.
**
** Every change of the known links bumps the memory's version. Anything
** computed from a memory (a search below) records the version it used and
** is stale once it differs: routes never rest on a memory that has since
** grown or forgotten.
**
** ROUTING WITHIN A MEMORY (route_memsearch.c). The cost model is the
** router's (route.h) restricted to the known links. A MemSearch is a
** backward Dijkstra from the goal area over link states: for each known
** link, the time from its end to the goal, and the next link. The graph
** stores incoming links per area, so a link is learned as an entry into
** its target and the search walks entries back from the goal. It runs in
** slices (a budget of link expansions per call, deterministic where a
** time budget would not be) and can be asked at any slice for the best
** route from where the bot stands now: the start is not part of the
** search, so a bot that walked on while the search ran gets a route from
** where it is, not from where it asked. The route from the bot's area is
** final once the smallest open time is no lower than the best way out of
** that area found so far; the search then pauses, and goes on only when
** the bot reaches an area it has not settled.
**
** Memory-limited routing does not multiply the router's caches by the
** number of bots: a search is the only per-memory state, one per (memory,
** version, goal, flags), 16 bytes per link, held in a pool with a byte cap
** shared by the whole simulation (sim_learn.c): bots with one memory and
** one goal share one search, and the least recently used finished search
** is reused first. The omniscient router and its caches are untouched.
**
** EXPLORING. When the goal is not within memory, memory_explore runs a
** forward search over the known links from the bot and picks the
** frontier: a link of a type the bot may try (walking, crouching: what a
** bot can see is floor) that it does not know, out of an area it can
** reach, scored by the time to it plus the straight-line time from its
** end to the goal. The bot takes that link and learns it by crossing it.
**
** DOES NOT: decide what a bot sees (sim_learn.c), or move bodies.
*/
#ifndef NAV_ROUTE_MEMORY_H
#define NAV_ROUTE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/limits.h"
#include "route/route.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MEMORY_LINKS_PER_AREA 8 /* default bound of known links into an area */
#define MEMORY_LINKS_PER_AREA_MAX 64
#define MEMORY_FILE_VERSION 1
#define MEMORY_FILE_MAX (64u << 20) /* bytes a memory file may have */

typedef struct NavMemory NavMemory;

/* An empty memory for graph ag (which must outlive it); links_per_area 0
** means MEMORY_LINKS_PER_AREA. NULL with err set when out of memory or
** links_per_area is out of 1..MEMORY_LINKS_PER_AREA_MAX. */
NavMemory *memory_create(const NavAreaGraph *ag, int links_per_area, NavError *err);
void memory_destroy(NavMemory *m);
/* A new memory with m's contents. */
NavMemory *memory_clone(const NavMemory *m, NavError *err);
/* dst gets src's contents (same graph); false when the graphs differ. */
bool memory_copy(NavMemory *dst, const NavMemory *src);
/* dst learns everything src knows (a team pooling what it saw); the cap
** per area applies, most recently seen first. False when graphs differ. */
bool memory_merge(NavMemory *dst, const NavMemory *src);
void memory_clear(NavMemory *m);

const NavAreaGraph *memory_graph(const NavMemory *m);
uint32_t memory_version(const NavMemory *m);
int memory_links_per_area(const NavMemory *m);
uint32_t memory_area_count(const NavMemory *m); /* areas known */
uint32_t memory_link_count(const NavMemory *m); /* links known */
size_t memory_bytes(const NavMemory *m);

bool memory_knows_area(const NavMemory *m, uint32_t area);
bool memory_knows_link(const NavMemory *m, uint32_t link);
/* When link was last seen taken (the stamp given to memory_learn_link), 0
** when unknown. */
uint32_t memory_link_seen(const NavMemory *m, uint32_t link);

/* Learn an area; true when it was new. */
bool memory_learn_area(NavMemory *m, uint32_t area);
/* Learn a link seen at `stamp` (a tick, >= 1), and both its areas. Returns
** 1 when new, 0 when it was known (its stamp is raised), -1 for a bad
** link. When the target area already holds links_per_area known links,
** the one seen longest ago is forgotten; *forgot gets it (UINT32_MAX when
** none; may be NULL). */
int memory_learn_link(NavMemory *m, uint32_t link, uint32_t stamp, uint32_t *forgot);
bool memory_forget_link(NavMemory *m, uint32_t link);
/* Forget an area and every known link into or out of it. */
bool memory_forget_area(NavMemory *m, uint32_t area);

/* Learn every area and link reachable from `start` over links whose type
** is in travel_types (NAV_TFL_TYPE bits) and whose flags are allowed,
** staying on areas of the given layer when layer >= 0 (a floor plan: "the
** ground floor"). Returns the number of links learned. */
uint32_t memory_learn_reachable(NavMemory *m, uint32_t start, uint32_t travel_types, uint32_t flags, int layer,
                                uint32_t stamp);

/* {======= files ======= */

/* A text file: "navbot-memory 1", the graph's size and fingerprint, then
** the known areas and links. Loading refuses, with the file, line and
** field named, a file of another version or of another graph (a map or a
** class changed since it was saved) and anything malformed; m is left as
** it was. */
NavStatus memory_save(const NavMemory *m, const char *path, NavError *err);
NavStatus memory_load(NavMemory *m, const char *path, NavError *err);
/* The same from and to a buffer (name is for the errors). */
NavStatus memory_save_buffer(const NavMemory *m, char **data, size_t *len, NavError *err);
NavStatus memory_load_buffer(NavMemory *m, const char *data, size_t len, const char *name, NavError *err);
/* The graph's fingerprint, as a memory file records it. */
uint64_t memory_graph_fingerprint(const NavAreaGraph *ag);

/* }======= */

/* {======= routing within a memory (route_memsearch.c) ======= */

typedef struct MemSearch MemSearch;

typedef enum MemSearchState {
    MEMSEARCH_RUNNING = 0, /* the route from the bot's area is not final yet */
    MEMSEARCH_READY,       /* it is: memsearch_route answers it */
    MEMSEARCH_NO_ROUTE,    /* the search ended without reaching the bot's area */
} MemSearchState;

typedef struct MemSearchStats {
    uint32_t expanded;  /* link states expanded so far */
    uint32_t settled;   /* link states with a final time */
    uint32_t slices;    /* calls that expanded something */
    uint32_t frontier;  /* open states */
    uint32_t best_time; /* the best route from the start known so far, ROUTE_UNREACHABLE if none */
} MemSearchStats;

/* A search toward goal for mover flags over what m knows, using r's cost
** tables (r must be for m's graph). It holds 16 bytes per link. */
MemSearch *memsearch_create(NavRouter *r, const NavMemory *m, uint32_t goal, uint32_t flags, NavError *err);
void memsearch_destroy(MemSearch *s);
/* Start it again (same arrays) for another memory, goal or flags. */
void memsearch_reset(MemSearch *s, const NavMemory *m, uint32_t goal, uint32_t flags);
size_t memsearch_bytes(const MemSearch *s);
/* What a search over a graph of `links` links takes (the pool's count). */
size_t memsearch_bytes_for(uint32_t links);
uint32_t memsearch_goal(const MemSearch *s);
uint32_t memsearch_flags(const MemSearch *s);
const NavMemory *memsearch_memory(const MemSearch *s);
/* The memory version it was computed from. */
uint32_t memsearch_version(const MemSearch *s);
/* Stale: the memory changed since (a link learned or forgotten) or an
** obstacle changed which links are usable. Reset it before asking again. */
bool memsearch_stale(const MemSearch *s);

/* Move the start to `point` in area `start` (the bot's area now). */
void memsearch_set_start(MemSearch *s, uint32_t start, const float point[3]);
/* Expand at most `budget` link states (0: no limit) toward the start;
** returns how many it expanded. Stops early once the start is settled. */
uint32_t memsearch_step(MemSearch *s, uint32_t budget);
MemSearchState memsearch_state(const MemSearch *s);
void memsearch_stats(const MemSearch *s, MemSearchStats *out);

/* The route from the start as links (at most cap written, *count how many
** it has). When not READY this is the best partial answer: a route from
** the start over states already settled (what the search found so far),
** or none. out->time is ROUTE_UNREACHABLE when there is none. */
void memsearch_route(MemSearch *s, uint32_t *links, int cap, int *count, NavRoute *out);
/* The time from link's end to the goal once final, ROUTE_UNREACHABLE
** otherwise (for drawing the search's progress). */
uint32_t memsearch_link_time(const MemSearch *s, uint32_t link);

/* The whole answer at once: memsearch_create, step to the end, route. */
NavStatus memory_route(NavRouter *r, const NavMemory *m, uint32_t start, const float point[3], uint32_t goal,
                       uint32_t flags, uint32_t *links, int cap, int *count, NavRoute *out);

typedef struct MemExplore {
    uint32_t try_types;   /* NAV_TFL_TYPE bits of unknown links it may try; 0: walk and crouch */
    const uint32_t *shun; /* links not to try (tried and failed) */
    int shun_count;
    float speed; /* m/s for the straight-line estimate; 0: the class's run speed */
} MemExplore;

/* Where to explore toward goal from `point` in `start`: the route over
** known links to the best frontier link, that link last (unknown). When
** the goal is within memory already, *count 0 and out->time that route's
** time (use memory_route); when there is no frontier left, *count 0 and
** out->time ROUTE_UNREACHABLE. Runs in r's search state (one query, not
** sliced). */
NavStatus memory_explore(NavRouter *r, const NavMemory *m, uint32_t start, const float point[3], uint32_t goal,
                         uint32_t flags, const MemExplore *opt, uint32_t *links, int cap, int *count, NavRoute *out);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif
