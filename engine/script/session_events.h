/*
** session_events.h — what happened to each bot in a tick, told to its
** brain: arrive, stuck, contact and fall events (docs/brains.md,
** "Events"). The session primes the watch before each sim_step, detects
** after it, and delivers at the start of the next session_step, before
** any brain thinks: bots in id order, each bot's events in the order
** arrive, stuck, contact, fall. Nothing here changes what the simulation
** does; a bot with no handlers costs one look-up per event.
**
**   arrive   it reached a goal (one event per goal):
**            info { goal = {x, y, z}, reached = goals reached so far, left = goals queued }
**   stuck    a stuck spell began (sim_goal.c: no progress toward its goal
**            for a second): info { time = seconds stuck, goal = {x, y, z} or nil }
**   contact  it ran into another bot, or one ran into it, and was not
**            touching that bot the tick before: info { bot = the other's
**            nav.Bot, id = its id }
**   fall     it landed more than its class's step below where it left the
**            ground without a jump, ladder, climb or lift: info { height =
**            metres, from = {x, y, z}, to = {x, y, z} }
*/
#ifndef NAV_SESSION_EVENTS_H
#define NAV_SESSION_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "script/brain.h"
#include "sim/sim.h"

typedef struct SessionEvents SessionEvents;

SessionEvents *session_events_create(void);
void session_events_destroy(SessionEvents *ev);
/* Room for the watch and the events of `bots` bots, made before a bot is
** added so that a tick never allocates. False when out of memory. */
bool session_events_reserve(SessionEvents *ev, uint32_t bots);
/* Before sim_step: take the state of bots added since the last step.
** False when a bot was added without session_events_reserve. */
bool session_events_prime(SessionEvents *ev, const NavSim *sim);
/* After sim_step: queue what changed. False when events were lost (no
** room reserved). */
bool session_events_detect(SessionEvents *ev, const NavSim *sim);
/* Call the handlers of the queued events (handle_of(user, id): the bot's
** brain handle, -1 for none), then empty the queue. */
void session_events_deliver(SessionEvents *ev, BrainHost *h, int (*handle_of)(void *user, uint32_t id), void *user);
/* Events delivered so far, handled or not (for tests). */
uint64_t session_events_count(const SessionEvents *ev);

#endif
