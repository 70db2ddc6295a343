/*
** cli_view.c — the part of the map a picture shows and its size, the same
** for every picture command (sim, replay, info, route): --view
** X0,Y0,X1,Y1 in metres, --px-per-m N or --width N (cli.h).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_view_option(const CliContext *cx, const CliCommand *cmd, CliView *v, int argc, char **argv, int *i)
{
    const char *val;
    int r;
    if ((r = cli_take_value("--view", argc, argv, i, &val)) != 0) {
        float b[4];
        const char *s = val;
        int n = 0;
        bool ok = r > 0;
        while (ok && n < 4) {
            ok = cli_parse_number(&s, &b[n++]);
            if (ok && n < 4) ok = *s++ == ',';
        }
        if (!ok || *s)
            return cli_usage_error(cx, cmd,
                                   "--view needs X0,Y0,X1,Y1: the part of the map to draw, its south-west and "
                                   "north-east corners in metres (such as 30,80,95,135)"),
                   -1;
        if (!(b[0] < b[2] && b[1] < b[3]))
            return cli_usage_error(cx, cmd,
                                   "--view %s: the box is empty (X0 must be less than X1, and Y0 less than Y1: "
                                   "the south-west corner first)",
                                   val),
                   -1;
        memcpy(v->box, b, sizeof b);
        v->box_set = true;
        v->view_arg = val;
    } else if ((r = cli_take_value("--px-per-m", argc, argv, i, &val)) != 0) {
        const char *s = val;
        float k = 0;
        if (r < 0 || !cli_parse_number(&s, &k) || *s || !(k > 0.0f) || k > CLI_VIEW_MAX_PX_PER_M)
            return cli_usage_error(cx, cmd, "--px-per-m needs the scale in pixels per metre, above 0 and at most %g",
                                   (double)CLI_VIEW_MAX_PX_PER_M),
                   -1;
        v->px_per_m = k;
    } else if ((r = cli_take_value("--width", argc, argv, i, &val)) != 0) {
        uint32_t u;
        if (r < 0 || !cli_parse_u32(val, &u) || u < CLI_VIEW_MIN_WIDTH || u > CLI_VIEW_MAX_SIDE)
            return cli_usage_error(cx, cmd, "--width needs the picture's width in pixels, from %d to %d",
                                   CLI_VIEW_MIN_WIDTH, CLI_VIEW_MAX_SIDE),
                   -1;
        v->width = (int)u;
    } else {
        return 0;
    }
    return 1;
}

int cli_view_check(const CliContext *cx, const CliCommand *cmd, CliView *v, const NavWorld *w, int extra_h)
{
    float cs = world_cell_size(w);
    float ww = (float)world_width(w) * cs, wh = (float)world_height(w) * cs;
    if (v->px_per_m > 0.0f && v->width > 0)
        return cli_usage_error(cx, cmd, "--px-per-m and --width both size the picture: give one of them");
    if (v->box_set && (v->box[2] <= 0.0f || v->box[3] <= 0.0f || v->box[0] >= ww || v->box[1] >= wh)) {
        fprintf(cx->err, "navbot %s: --view %s: outside the map; %s spans 0,0 to %g,%g (metres, x east, y north)\n",
                cmd->name, v->view_arg ? v->view_arg : "", world_source(w), (double)ww, (double)wh);
        return CLI_USAGE;
    }
    if (!v->box_set) v->box[0] = 0, v->box[1] = 0, v->box[2] = ww, v->box[3] = wh;
    float bw = v->box[2] - v->box[0], bh = v->box[3] - v->box[1];
    v->scale = v->px_per_m > 0.0f ? v->px_per_m : v->width > 0 ? (float)v->width / bw : 0.0f;
    v->pic_w = v->pic_h = 0;
    if (v->scale <= 0.0f) return CLI_OK;
    double pw = (double)bw * v->scale, ph = (double)bh * v->scale;
    const char *what = v->px_per_m > 0.0f ? "--px-per-m" : "--width";
    char box[160];
    if (v->box_set) snprintf(box, sizeof box, "--view %s", v->view_arg ? v->view_arg : "");
    else snprintf(box, sizeof box, "the whole map (%g x %g m)", (double)ww, (double)wh);
    if (pw > CLI_VIEW_MAX_SIDE || ph + extra_h > CLI_VIEW_MAX_SIDE)
        return cli_usage_error(cx, cmd,
                               "%s at %s %g px/m is a picture of %.0f x %.0f px: at most %d a side (a lower "
                               "scale or a smaller part)",
                               box, what, (double)v->scale, pw, ph + extra_h, CLI_VIEW_MAX_SIDE);
    if (pw < CLI_VIEW_MIN_WIDTH - 0.5 || ph < CLI_VIEW_MIN_MAP_ROWS - 0.5)
        return cli_usage_error(cx, cmd,
                               "%s at %s %g px/m is a picture of %.0f x %.0f px of map: at least %d wide and %d "
                               "high (a higher scale or a larger part)",
                               box, what, (double)v->scale, pw, ph, CLI_VIEW_MIN_WIDTH, CLI_VIEW_MIN_MAP_ROWS);
    v->pic_w = (int)lround(pw);
    v->pic_h = (int)lround(ph) + extra_h;
    return CLI_OK;
}
