/*
** jobs.h — numbered tasks run in child processes, a few at once: each
** child does one task and hands its result back as bytes through a pipe
** and its exit code; the parent gathers them and says how each ended.
** `navbot test` runs its scenarios this way and `navbot bench
** competence` its sims, so a crash or a runaway loop in one task is
** reported as that task's, never the whole run's.
**
** STEP BY STEP
**   static void work(void *user, int task, JobOutput *out)    in the child
**   { ... out->data = malloc'd bytes, out->len, out->code = 0 or 1 ... }
**   static void done(void *user, int task, const JobEnd *end) in the parent
**   { ... end->data, end->len, end->code or end->signal ... }
**   jobs_run(&(JobsDesc){ .count = n, .at_once = 2, .seconds = 600,
**                         .work = work, .done = done, .user = u });
**
** done is called once per task, in the order tasks finish (not their
** numbers), always in the parent. With at_once <= 1, or when a process
** cannot be made, the task runs in this process (JobEnd.in_process).
**
** DOES NOT: order results (the caller keeps them by task number), print,
** or time tasks out in this process (only children get the alarm).
*/
#ifndef NAV_JOBS_H
#define NAV_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JOBS_MAX_AT_ONCE 64

/* What a task made: bytes (malloc'd, or NULL) and its exit code (0..2; a
** child that cannot write its bytes exits 3). */
typedef struct JobOutput {
    char *data;
    size_t len;
    int code;
} JobOutput;

/* How a task ended. complete: its process exited with code 0..2 after
** writing its bytes (or it ran here); otherwise signal is the signal
** that killed it (0: none) and code its exit status (-1: none). */
typedef struct JobEnd {
    const char *data; /* valid during the call only */
    size_t len;
    int code;
    int signal;
    bool complete;
    bool in_process;
} JobEnd;

typedef struct JobsDesc {
    int count;        /* tasks 0 .. count-1 */
    int at_once;      /* processes at once, at most JOBS_MAX_AT_ONCE */
    unsigned seconds; /* wall time a child may take (SIGALRM); 0: no limit */
    void (*work)(void *user, int task, JobOutput *out);
    void (*done)(void *user, int task, const JobEnd *end);
    void *user;
} JobsDesc;

/* Runs every task; returns when done was called for each. */
void jobs_run(const JobsDesc *d);

#ifdef __cplusplus
}
#endif

#endif
