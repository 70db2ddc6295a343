/*
** embed.c — navbot inside your own program, through its public C API.
**
** Loads a map (the bundled arena unless one is given), asks for a route
** between two of its points, then runs four runner bots to the map's goal
** and prints who arrived and when.
**
**   cc embed.c $(pkg-config --cflags --libs navbot) -o embed
**   ./embed [MAP [PNG]]
**
** Exits 0 when every bot arrived, 3 when some did not, 1 on an error.
*/
#include <navbot.h>
#include <stdio.h>

/* A named point of the map, or the first argument's fallback. */
static int point(NavbotWorld *w, const char *name, float out[3])
{
    if (navbot_world_entity_point(w, name, out) == NAVBOT_OK) return 1;
    fprintf(stderr, "embed: %s\n", navbot_world_error(w));
    return 0;
}

int main(int argc, char **argv)
{
    char bundled[4096];
    const char *map = argc > 1 ? argv[1] : NULL;
    if (!map) {
        if (navbot_bundled_path("maps/arena.lua", bundled, sizeof bundled) != NAVBOT_OK) {
            fprintf(stderr, "embed: navbot's bundled maps were not found; give a map\n");
            return 1;
        }
        map = bundled;
    }

    NavbotError err;
    NavbotWorld *w;
    if (navbot_world_load(map, &(NavbotWorldDesc){ .seed = 1 }, &w, &err) != NAVBOT_OK) {
        fprintf(stderr, "embed: %s (%s)\n", err.text, navbot_status_name(err.status));
        return 1;
    }
    NavbotWorldInfo info;
    navbot_world_info(w, &info);
    printf("map %s: %d x %d cells, %d class(es)\n", info.name, info.width, info.height, info.class_count);

    float a[3], b[3], goal[3];
    if (!point(w, "spawn_a", a) || !point(w, "spawn_b", b) || !point(w, "centre", goal)) {
        navbot_world_destroy(w);
        return 1;
    }

    /* A route: waypoints from the start over every link to the goal. */
    NavbotWaypoint pts[64];
    NavbotRoute route = { .points = pts, .cap = 64 };
    NavbotStatus st = navbot_route(w, &(NavbotRouteQuery){ .from = { a[0], a[1], a[2] }, .to = { goal[0], goal[1], goal[2] } },
                                   &route);
    if (st != NAVBOT_OK) {
        fprintf(stderr, "embed: route: %s\n", navbot_world_error(w));
        navbot_world_destroy(w);
        return 1;
    }
    printf("route spawn_a -> centre: %.2f s, %d links, %d waypoints\n", (double)route.time, route.links, route.count);
    for (int i = 0; i < route.count && i < route.cap; i++) {
        const char *how = navbot_travel_name(pts[i].travel);
        printf("  (%.2f, %.2f, %.2f)%s%s\n", (double)pts[i].pos[0], (double)pts[i].pos[1], (double)pts[i].pos[2],
               how ? " by " : "", how ? how : "");
    }

    /* Four runners, two from each spawn, all to the centre. */
    NavbotSession *s;
    if (navbot_session_create(w, &(NavbotSessionDesc){ .seed = 1 }, &s, &err) != NAVBOT_OK) {
        fprintf(stderr, "embed: %s\n", err.text);
        navbot_world_destroy(w);
        return 1;
    }
    for (int i = 0; i < 4; i++) {
        const float *from = i % 2 ? b : a;
        float step = i % 2 ? -1.0f : 1.0f; /* spawn_b is in the east corner */
        int id;
        NavbotBotDesc d = { .brain = "runner", .at = { from[0] + step * (float)(i / 2), from[1], from[2] },
                            .has_goal = true, .goal = { goal[0], goal[1], goal[2] } };
        if (navbot_session_add_bot(s, &d, &id) != NAVBOT_OK) {
            fprintf(stderr, "embed: bot %d: %s\n", i, navbot_session_error(s));
            navbot_session_destroy(s);
            navbot_world_destroy(w);
            return 1;
        }
    }

    /* Up to 30 simulated seconds, a second at a time, until all arrived. */
    int arrived = 0, bots = navbot_session_bot_count(s);
    for (int second = 0; second < 30 && arrived < bots; second++) {
        navbot_session_step(s, 30);
        arrived = 0;
        for (int id = 0; id < bots; id++) {
            NavbotBotState bs;
            navbot_session_bot(s, id, &bs);
            arrived += bs.arrived;
        }
    }
    for (int id = 0; id < bots; id++) {
        NavbotBotState bs;
        navbot_session_bot(s, id, &bs);
        if (bs.arrived)
            printf("bot %d (%s): arrived after %.2f s at (%.2f, %.2f, %.2f)\n", id, bs.brain, bs.arrival_time,
                   (double)bs.pos[0], (double)bs.pos[1], (double)bs.pos[2]);
        else
            printf("bot %d (%s): not arrived%s%s\n", id, bs.brain, bs.faulted ? ": " : "", bs.faulted ? bs.error : "");
    }
    printf("%d of %d arrived in %.2f s\n", arrived, bots, navbot_session_time(s));

    if (argc > 2 && navbot_session_png(s, argv[2], 0) != NAVBOT_OK)
        fprintf(stderr, "embed: png: %s\n", navbot_session_error(s));

    navbot_session_destroy(s);
    navbot_world_destroy(w);
    return arrived == bots ? 0 : 3;
}
