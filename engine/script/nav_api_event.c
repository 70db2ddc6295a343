/*
** nav_api_event.c — bot:on(name, fn): a handler for one of the bot's
** events ("arrive", "stuck", "contact", "fall", "learn"; session_events.h), kept
** in the state's registry table at &brain_handlers_key, where the brain host finds it
** (brain_event). It takes the place of the brain table's on_NAME for this
** bot; bot:on(name, nil) removes it. Returns the handler it replaced.
*/
#include "script/nav_api_internal.h"

#include <string.h>

#include "script/brain.h"

static const char *const EVENTS[] = { "arrive", "stuck", "contact", "fall", "learn", NULL };

static int bot_on(lua_State *L)
{
    const NavBot *b = nav_api_check_bot(L, 1, NULL);
    int ev = luaL_checkoption(L, 2, NULL, EVENTS);
    if (!lua_isnil(L, 3)) luaL_checktype(L, 3, LUA_TFUNCTION);
    luaL_checkany(L, 3);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &brain_handlers_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &brain_handlers_key);
    }
    if (lua_rawgeti(L, -1, b->id) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, b->id);
    }
    lua_getfield(L, -1, EVENTS[ev]); /* the old one, returned */
    lua_pushvalue(L, 3);
    lua_setfield(L, -3, EVENTS[ev]);
    return 1;
}

void nav_api_event_register(lua_State *L, int nav_index)
{
    static const luaL_Reg BOT[] = { { "on", bot_on }, { NULL, NULL } };
    nav_api_add(L, nav_index, NULL, BOT);
}
