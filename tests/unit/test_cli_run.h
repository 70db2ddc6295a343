/*
** test_cli_run.h — the navbot command line run in process, its output
** captured: NAVBOT("info", "x.lua") runs `navbot info x.lua`.
*/
#ifndef NAV_TEST_CLI_RUN_H
#define NAV_TEST_CLI_RUN_H

#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

typedef struct Run {
    int status;
    char *out;
    char *err;
} Run;

static inline Run navbot(int argc, const char **argv)
{
    Run r = { 0 };
    size_t no, ne;
    FILE *out = open_memstream(&r.out, &no);
    FILE *err = open_memstream(&r.err, &ne);
    r.status = cli_main(argc, (char **)argv, out, err);
    fclose(out);
    fclose(err);
    return r;
}

/* open_memstream's buffers are the C library's. */
static inline void run_free(Run *r)
{
    free(r->out);
    free(r->err);
}

static inline Run navbot_list(const char **argv)
{
    int argc = 0;
    while (argv[argc]) argc++;
    return navbot(argc, argv);
}
#define NAVBOT(...) navbot_list((const char *[]){ "navbot", __VA_ARGS__, NULL })

#endif
