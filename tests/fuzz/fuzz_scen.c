/*
** fuzz_scen.c — Moving AI scenario files (.scen): the input is the file's
** text, parsed as the benchmarks and `navbot path --scen` parse it. Every
** problem parsed must lie on its own map's grid or have been refused.
*/
#include "core/alloc.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = nav_malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    MapScenProblem *probs = NULL;
    int count = 0;
    NavError err;
    nav_error_clear(&err);
    NavStatus st = map_movingai_scen_parse("fuzz.scen", text, &probs, &count, &err);
    if (NAV_FAILED(st)) {
        fuzz_must_say_why(&err);
    } else {
        for (int i = 0; i < count; i++) {
            const MapScenProblem *p = &probs[i];
            if (p->sx < 0 || p->sy < 0 || p->gx < 0 || p->gy < 0 || p->sx >= p->map_w || p->gx >= p->map_w ||
                p->sy >= p->map_h || p->gy >= p->map_h || !(p->optimal >= 0.0)) {
                fprintf(stderr, "line %d: a problem off its map or with a bad length was accepted\n", p->line);
                __builtin_trap();
            }
        }
    }
    nav_free(probs);
    nav_free(text);
    return 0;
}
