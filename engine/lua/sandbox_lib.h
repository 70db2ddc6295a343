/*
** sandbox_lib.h — the string and table functions a sandbox hands out in
** place of the stock ones whose work one instruction would not cover.
**
** Replaced (the same results and messages as Lua 5.4's, their work charged
** to the instruction budget as it is done, sandbox_charge):
**   string.find, match, gmatch, gsub  the counted matcher (sandbox_match.h):
**                                     a step per item tried, so a
**                                     backtracking pattern ends in the
**                                     budget error, not a hang
**   string.rep                        refused past the memory cap before it
**                                     allocates; charged by output size
**                                     (and rep("", huge) is immediate)
**   table.concat                      charged per element and output size
** Wrapped (the stock function, charged first for what it is about to do):
**   string.byte, table.unpack, utf8.codepoint  per value pushed
**   table.insert, table.remove (with a position), table.move  per element moved
**   table.sort                        n log2 n for the comparisons (a Lua
**                                     comparator is counted as well)
**   utf8.len, utf8.offset             per 16 bytes of the subject
** Output made by other functions (string.format, upper, sub, `..`, ...) is
** charged through the allocator (sandbox.h).
**
** DOES NOT: change the base library; make string comparison or `next`
** over a sparse table cost more than one instruction.
*/
#ifndef NAV_SANDBOX_LIB_H
#define NAV_SANDBOX_LIB_H

#include <lua.h>

/* Installs the counted functions into the string, table and utf8 tables
** (already opened). Runs inside a protected call. */
void sandbox_lib_open(lua_State *L);

#endif
