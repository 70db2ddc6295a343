/*
** run_trace_internal.h — shared by the trace's reader (run_trace_read.c)
** and its index and replay (run_trace_pose.c).
*/
#ifndef NAV_RUN_TRACE_INTERNAL_H
#define NAV_RUN_TRACE_INTERNAL_H

#include "script/run_trace.h"

/* A route or intent with room for the counts given, its arrays pointing
** into the same allocation (one nav_free frees it). NULL: out of memory. */
RunTraceRoute *run_trace_route_new(int link_count, int path_count);
RunTraceIntent *run_trace_intent_new(int req_count, int trace_count);

/* Build t's index (frame_event and keys) from its frames and events.
** False with err set when out of memory. */
bool run_trace_index(RunTrace *t, const char *path, NavError *err);
void run_trace_index_free(RunTrace *t);

#endif
