/*
** alloc.h — the one allocator every navbot allocation goes through.
**
** The engine never calls malloc, calloc, realloc, free or strdup itself:
** it calls nav_malloc and friends, which call the process's NavAllocator.
** A zeroed allocator (the default) means the C library. The Lua states of
** the sandbox allocate through it too (sandbox.c wraps it with the memory
** cap), so an embedder's allocator sees every byte navbot asks for.
**
** The allocator is one function in the style of Lua's lua_Alloc, without
** the old size (the engine frees without knowing it):
**   fn(user, NULL, n)  allocate n > 0 bytes
**   fn(user, p, n)     resize p to n > 0 bytes (p unchanged on failure)
**   fn(user, p, 0)     free p (p is never NULL here)
** returning NULL on failure. Every call that fails is reported by the
** caller as NAV_E_NOMEM; nothing aborts.
**
** The allocator is process-wide. nav_set_allocator refuses to change it
** while blocks it gave are still live (a block must go back to the
** allocator that made it), so set it once, before anything is created.
** Reading it is safe from any thread; set it from one thread, before
** others start.
**
** DOES NOT: allocate in any other way, keep pools or caches, or round
** sizes. Memory that external libraries hand over (SDL, Lua's own strings
** and userdata, stb_image_write's buffers) stays theirs and goes back to
** them.
*/
#ifndef NAV_ALLOC_H
#define NAV_ALLOC_H

#include <stddef.h>
#include <string.h>

#include "core/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {======= Types ======= */

typedef struct NavAllocator {
    /* NULL (with user NULL too): the C library's malloc, realloc, free. */
    void *(*fn)(void *user, void *ptr, size_t size);
    void *user;
} NavAllocator;

/* }======= */

/* {======= Functions ======= */

/* Make a the allocator (NULL or a zeroed one: the C library). Refused with
** NAV_E_PARAM when blocks of the current allocator are still live, and
** when a has a user pointer but no function. */
NavStatus nav_set_allocator(const NavAllocator *a, NavError *err);

/* The allocator in force (fn NULL for the C library). */
NavAllocator nav_get_allocator(void);

/* Blocks allocated through the hook and not yet freed. */
size_t nav_alloc_live(void);

/* n bytes (a request for 0 gets 1, so NULL always means failure). */
void *nav_malloc(size_t n);

/* count * size bytes, zeroed; NULL when the product overflows. */
void *nav_calloc(size_t count, size_t size);

/* Resize p (NULL: allocate) to n bytes (0 gets 1); NULL on failure, and
** p is then left as it was. */
void *nav_realloc(void *p, size_t n);

/* nav_realloc to count * size bytes; NULL when the product overflows. */
void *nav_realloc_array(void *p, size_t count, size_t size);

/* Free p (NULL is fine). p must come from these functions. */
void nav_free(void *p);

/* A copy of s (NULL for NULL or on failure). */
char *nav_strdup(const char *s);

/* A copy of the first n bytes of s, terminated. */
char *nav_strndup(const char *s, size_t n);

/* }======= */

#ifdef __cplusplus
}
#endif

#endif /* NAV_ALLOC_H */
