/*
** jobs.c — tasks in child processes (jobs.h).
*/
#define _DEFAULT_SOURCE /* fork, pipe, poll */
#include "scenario/jobs.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"

typedef struct Child {
    pid_t pid;
    int fd;
    int task;
    char *data;
    size_t len, cap;
} Child;

static bool write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        s += k;
        n -= (size_t)k;
    }
    return true;
}

/* Reads what is there; false at the end of the child's output (or when
** memory runs out: the rest is lost, the task ends incomplete). */
static bool read_some(Child *c)
{
    if (c->cap - c->len < 4096) {
        size_t cap = c->cap ? 2 * c->cap : 8192;
        char *d = nav_realloc(c->data, cap);
        if (!d) return false;
        c->data = d;
        c->cap = cap;
    }
    ssize_t n = read(c->fd, c->data + c->len, c->cap - c->len);
    if (n > 0) {
        c->len += (size_t)n;
        return true;
    }
    return n < 0 && errno == EINTR;
}

static void run_here(const JobsDesc *d, int task)
{
    JobOutput o = { NULL, 0, 0 };
    d->work(d->user, task, &o);
    JobEnd e = { o.data, o.len, o.code, 0, true, true };
    d->done(d->user, task, &e);
    nav_free(o.data);
}

static bool spawn(const JobsDesc *d, int task, Child *c)
{
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        /* A task whose code never returns would hold the whole run; it is
        ** reported as killed by SIGALRM. */
        if (d->seconds) alarm(d->seconds);
        JobOutput o = { NULL, 0, 0 };
        d->work(d->user, task, &o);
        bool ok = write_all(fds[1], o.data ? o.data : "", o.len);
        /* _exit: the parent's stdio buffers and exit handlers are its own. */
        _exit(ok ? o.code : 3);
    }
    close(fds[1]);
    *c = (Child){ .pid = pid, .fd = fds[0], .task = task };
    return true;
}

static void reap(const JobsDesc *d, Child *c)
{
    close(c->fd);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
    JobEnd e = {
        c->data, c->len, WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
        false,   false
    };
    e.complete = WIFEXITED(status) && WEXITSTATUS(status) <= 2;
    d->done(d->user, c->task, &e);
    nav_free(c->data);
}

void jobs_run(const JobsDesc *d)
{
    int at_once = d->at_once < JOBS_MAX_AT_ONCE ? d->at_once : JOBS_MAX_AT_ONCE;
    if (at_once <= 1 || d->count <= 1) {
        for (int t = 0; t < d->count; t++) run_here(d, t);
        return;
    }
    Child kids[JOBS_MAX_AT_ONCE];
    struct pollfd pfd[JOBS_MAX_AT_ONCE];
    int running = 0, next = 0;
    fflush(NULL);
    while (next < d->count || running > 0) {
        while (running < at_once && next < d->count) {
            if (spawn(d, next, &kids[running])) running++;
            else run_here(d, next); /* no process: run it here */
            next++;
        }
        if (running <= 0) continue; /* never below 0: "<=" lets the compiler see that poll gets a sane count */
        for (int k = 0; k < running; k++) pfd[k] = (struct pollfd){ .fd = kids[k].fd, .events = POLLIN };
        if (poll(pfd, (nfds_t)running, -1) < 0) {
            if (errno == EINTR) continue;
            /* Cannot wait on the pipes: read each to its end in turn. */
            for (int k = 0; k < running; k++) pfd[k].revents = POLLIN;
        }
        for (int k = 0; k < running; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (read_some(&kids[k])) continue;
            reap(d, &kids[k]);
            kids[k] = kids[--running];
            pfd[k] = pfd[running];
            k--;
        }
    }
}
