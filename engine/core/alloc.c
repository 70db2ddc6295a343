/*
** alloc.c — the process's allocator hook and the functions over it.
*/
#include "core/alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

static NavAllocator g_alloc;

/* Blocks handed out and not freed: an embedder may swap allocators only
** when none is live, else a block would be freed by one that never made
** it. Atomic because two worlds may live in two threads. */
static atomic_size_t g_live;

static void *call(void *ptr, size_t size)
{
    if (g_alloc.fn) return g_alloc.fn(g_alloc.user, ptr, size);
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

NavStatus nav_set_allocator(const NavAllocator *a, NavError *err)
{
    NavAllocator next = a ? *a : (NavAllocator){ 0 };
    if (!next.fn && next.user)
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "allocator", "a user pointer without a function");
    size_t live = atomic_load(&g_live);
    if (live != 0 && (next.fn != g_alloc.fn || next.user != g_alloc.user))
        return nav_error_set(err, NAV_E_PARAM, NULL, 0, 0, "allocator",
                             "%zu blocks of the current allocator are still in use; set the allocator before "
                             "creating anything",
                             live);
    g_alloc = next;
    return NAV_OK;
}

NavAllocator nav_get_allocator(void) { return g_alloc; }

size_t nav_alloc_live(void) { return atomic_load(&g_live); }

void *nav_malloc(size_t n)
{
    void *p = call(NULL, n ? n : 1);
    if (p) atomic_fetch_add(&g_live, 1);
    return p;
}

void *nav_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    size_t n = count * size;
    void *p = nav_malloc(n);
    if (p) memset(p, 0, n ? n : 1);
    return p;
}

void *nav_realloc(void *p, size_t n)
{
    if (!p) return nav_malloc(n);
    return call(p, n ? n : 1);
}

void *nav_realloc_array(void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    return nav_realloc(p, count * size);
}

void nav_free(void *p)
{
    if (!p) return;
    call(p, 0);
    atomic_fetch_sub(&g_live, 1);
}

char *nav_strndup(const char *s, size_t n)
{
    if (!s) return NULL;
    size_t len = strnlen(s, n);
    char *d = nav_malloc(len + 1);
    if (!d) return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *nav_strdup(const char *s) { return s ? nav_strndup(s, SIZE_MAX) : NULL; }
