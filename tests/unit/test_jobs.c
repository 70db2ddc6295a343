/*
** test_jobs.c — tasks in child processes (scenario/jobs.h): every task's
** bytes come back to the parent whatever order the children end in, a
** child that crashes, exits without its bytes or runs away is reported
** as such, and one process at a time runs the tasks here.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "scenario/jobs.h"
#include "test_support.h"

#define TASKS 9

typedef struct Seen {
    int calls[TASKS];
    JobEnd end[TASKS];
    char data[TASKS][64];
    int order[TASKS], finished;
} Seen;

/* Task t writes "task t" and exits t % 3 (0..2), except: 4 aborts, 5
** exits 2 before writing, 6 hangs (the alarm stops it), 7 writes a lot. */
static void work(void *user, int task, JobOutput *out)
{
    (void)user;
    if (task == 4) abort();
    if (task == 5) _exit(2);
    if (task == 6)
        for (;;) pause();
    size_t n = task == 7 ? 200000 : 16;
    out->data = nav_malloc(n);
    memset(out->data, 'x', n);
    out->len = (size_t)snprintf(out->data, 16, "task %d", task);
    if (task == 7) out->len = n;
    out->code = task % 3;
}

static void done(void *user, int task, const JobEnd *end)
{
    Seen *s = user;
    s->calls[task]++;
    s->end[task] = *end;
    snprintf(s->data[task], sizeof s->data[task], "%.*s", (int)(end->len < 63 ? end->len : 63), end->data ? end->data : "");
    s->order[s->finished++] = task;
}

Test(jobs, children_hand_back_bytes_and_how_they_ended, .timeout = 30)
{
    Seen s;
    memset(&s, 0, sizeof s);
    jobs_run(&(JobsDesc){ .count = TASKS, .at_once = 3, .seconds = 1, .work = work, .done = done, .user = &s });
    cr_assert_eq(s.finished, TASKS);
    for (int t = 0; t < TASKS; t++) {
        cr_assert_eq(s.calls[t], 1, "task %d: done called %d times", t, s.calls[t]);
        cr_assert_not(s.end[t].in_process, "task %d ran in the parent", t);
        char want[32];
        snprintf(want, sizeof want, "task %d", t);
        if (t == 4) {
            cr_assert_not(s.end[t].complete);
            cr_assert_eq(s.end[t].signal, SIGABRT);
        } else if (t == 5) {
            cr_assert(s.end[t].complete, "an exit code of 2 is an answer");
            cr_assert_eq(s.end[t].code, 2);
            cr_assert_eq(s.end[t].len, 0);
        } else if (t == 6) {
            cr_assert_not(s.end[t].complete);
            cr_assert_eq(s.end[t].signal, SIGALRM, "the runaway task: signal %d", s.end[t].signal);
        } else if (t == 7) {
            cr_assert(s.end[t].complete);
            cr_assert_eq(s.end[t].len, 200000, "the long output came back as %zu bytes", s.end[t].len);
        } else {
            cr_assert(s.end[t].complete, "task %d", t);
            cr_assert_eq(s.end[t].code, t % 3);
            cr_assert_str_eq(s.data[t], want);
        }
    }
    /* The runaway task ends last: the others finish while it waits. */
    cr_assert_eq(s.order[TASKS - 1], 6);
}

static void work_here(void *user, int task, JobOutput *out)
{
    (void)user;
    out->data = nav_malloc(16);
    out->len = (size_t)snprintf(out->data, 16, "here %d", task);
    out->code = 1;
}

Test(jobs, one_at_a_time_runs_here_in_order)
{
    Seen s;
    memset(&s, 0, sizeof s);
    jobs_run(&(JobsDesc){ .count = 4, .at_once = 1, .work = work_here, .done = done, .user = &s });
    cr_assert_eq(s.finished, 4);
    for (int t = 0; t < 4; t++) {
        cr_assert_eq(s.order[t], t);
        cr_assert(s.end[t].in_process && s.end[t].complete);
        cr_assert_eq(s.end[t].code, 1);
        char want[32];
        snprintf(want, sizeof want, "here %d", t);
        cr_assert_str_eq(s.data[t], want);
    }
    /* Nothing to run. */
    jobs_run(&(JobsDesc){ .count = 0, .at_once = 4, .work = work_here, .done = done, .user = &s });
    cr_assert_eq(s.finished, 4);
}
