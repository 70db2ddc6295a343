/*
** api_paths.h — the folder of the running code and navbot's bundled files
** (lua/, bots/, maps/, assets/) relative to it, for the public API and the
** Lua C module, which run inside other programs (lua5.4, a game) whose
** executable says nothing about where navbot is installed.
**
** DOES NOT: look in the current directory or the environment.
*/
#ifndef NAV_API_PATHS_H
#define NAV_API_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The folder of the shared object (or executable) holding this code,
** without a trailing slash. False when it cannot be told. */
bool api_code_dir(char *out, size_t cap);

/* The folder holding the bundled lua/ (with bots/, maps/, assets/ beside
** it): <code dir>/../share/navbot (libnavbot.so in PREFIX/lib, or an
** executable in PREFIX/bin), <code dir>/../../../share/navbot (nav.so in
** PREFIX/lib/lua/5.4), or <code dir>/../.. (bin/<config>/ of the source
** tree). The first that holds lua/follow.lua, made absolute. False when
** none does. */
bool api_bundled_root(char *out, size_t cap);

#endif
