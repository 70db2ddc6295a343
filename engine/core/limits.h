/*
** limits.h — every size navbot refuses to go past, in one place.
**
** Each limit is checked where the input is read (a map file, a .nav file,
** a run trace, a golden file, a command line, a script's request) and a
** value past it is refused with an error naming the file, the line when
** there is one, the field and the limit, never left to end in an
** allocation that takes the machine down or a loop that never ends.
** docs/limits.md lists them for users; keep the two in step.
**
** Other headers keep their older names for some of these (NAV_MAX_WORLD_SIDE,
** SIM_MAX_BOTS, ...), defined from the ones here.
*/
#ifndef NAV_LIMITS_H
#define NAV_LIMITS_H

/* {======= maps ======= */

/* Bytes of a map file. A 16384 x 4096 Moving AI grid is 64 MiB of text;
** a native Lua map that needs more should compute its layout instead. */
#define NAV_LIMIT_MAP_FILE_BYTES (64u * 1024u * 1024u)

/* Cells on a side. 16384 x 16384 keeps cell indices in 32 bits and is
** 8 km a side at 0.5 m, past any map a game ships. */
#define NAV_LIMIT_WORLD_SIDE 16384

/* Cells in all layers. 64 Mi columns of about 16 bytes are 1 GiB before
** the grids and area graphs built over them (a few times more): the most
** one machine should be asked for by a file it was handed. */
#define NAV_LIMIT_CELLS (64u * 1024u * 1024u)

/* Stacked layers (storeys) of a map: one bit each in per-column masks. */
#define NAV_LIMIT_LAYERS 64

/* Entities of a map (spawns, goals, elevators, doors, crates, ...). The
** simulation walks them every tick and the area graph adds links for
** them; Quake III's engine allows 1,024 game entities, so 4,096 leaves
** room while a tick stays cheap and a million-entity file fails at once. */
#define NAV_LIMIT_ENTITIES 4096

/* Passability classes: one bit each in the grid's 32-bit cells. */
#define NAV_LIMIT_CLASSES 32

/* Stops of one elevator (each becomes a portal and links). */
#define NAV_LIMIT_ELEVATOR_STOPS 16

/* Tiled maps: different tiles the tile layers use (each becomes one
** legend character: every byte but NUL, space and DEL), tilesets, and
** objects (an object's references are looked up among them). */
#define NAV_LIMIT_TILED_TILES 253
#define NAV_LIMIT_TILED_TILESETS 256
#define NAV_LIMIT_TILED_OBJECTS 16384

/* A JSON map's values: one per this many bytes of the map's script
** memory (4 Mi at 64 MiB). cJSON holds about 80 bytes a value outside
** that cap, so a file of millions of numbers is refused before it is
** parsed rather than taking gigabytes. */
#define NAV_LIMIT_JSON_VALUE_BYTES 16

/* Vertices, and triangles, of a mesh map (.obj): 8 Mi is eighty times
** the 100,000 triangles of a detailed level, and the arrays read from a
** 64 MiB file of tiny faces stay under half a GiB. */
#define NAV_LIMIT_MESH_TRIANGLES (8u * 1024u * 1024u)

/* The cells a mesh's triangles cover (each triangle's bounding box in
** cells, summed), as a multiple of the grid's cells: a many-storey
** building covers its grid a few dozen times; a file of a few thousand
** huge overlapping triangles would rasterize for minutes. */
#define NAV_LIMIT_MESH_COVER 64

/* }======= */

/* {======= area graphs and routing ======= */

/* Areas of one class's graph. The compiler merges cells into rectangles,
** so a real map has far fewer areas than cells; 4 Mi areas (hundreds of
** MiB with their links and caches) means a map of noise, refused at
** compile and in a .nav file rather than ground through. */
#define NAV_LIMIT_AREAS (4u * 1024u * 1024u)

/* Links (reachabilities) of one class's graph: about eight per area. */
#define NAV_LIMIT_LINKS (32u * 1024u * 1024u)

/* Bytes of a .nav file: the largest graph above fits in well under this. */
#define NAV_LIMIT_NAV_FILE_BYTES (1024u * 1024u * 1024u)

/* The default cap of one router's caches (NavRouterDesc.cache_bytes):
** the caches for hundreds of goals on the bundled maps; the oldest are
** dropped past it. */
#define NAV_LIMIT_ROUTE_CACHE_BYTES (16u * 1024u * 1024u)

/* Known links into one area a navigation memory may keep: more ways into
** one room than anyone remembers; the default is 8 (route_memory.h). */
#define NAV_LIMIT_MEMORY_LINKS_PER_AREA 64

/* A navigation memory file: a line of about 20 bytes per known link, so
** a memory of 10 million links (the largest graphs' third). */
#define NAV_LIMIT_MEMORY_FILE_BYTES (256u * 1024u * 1024u)

/* The sliced searches within memories, all bots of a simulation: 16
** bytes per link each, so a thousand searches on a 1,000-link map or ten
** on a 100,000-link one; past it the least recently used finished one is
** reused and a bot that finds none free waits a tick ("queued"). */
#define NAV_LIMIT_SEARCH_POOL_BYTES (16u * 1024u * 1024u)

/* }======= */

/* {======= bots and brains ======= */

/* Bots in one simulation: six times the 10,000-unit crowd the benchmarks
** hold to 25 ms a tick, so a tick past it could not keep time anyway. */
#define NAV_LIMIT_BOTS 65536

/* Bytes one brain's Lua state may hold (all bots on that brain file
** share it): 64 MiB is 6 KiB for each of 10,000 RTS units. Past it the
** allocation fails and the brain faults with "ran out of memory". */
#define NAV_LIMIT_BRAIN_MEMORY (64u * 1024u * 1024u)

/* Lua VM instructions one bot's brain may run in a tick: a few
** milliseconds of Lua, so an endless loop is stopped within its tick.
** Past it the brain faults with the budget in its message. */
#define NAV_LIMIT_BRAIN_INSTRUCTIONS 1000000ull

/* Memory and instructions of the other scripts (maps, scenarios), which
** run once at load rather than every tick: the same memory, and 200 M
** instructions (a few seconds) to compute a layout. */
#define NAV_LIMIT_SCRIPT_MEMORY (64u * 1024u * 1024u)
#define NAV_LIMIT_SCRIPT_INSTRUCTIONS 200000000ull

/* }======= */

/* {======= runs and traces ======= */

/* Ticks of a run, a run trace or a golden file: 2^27 ticks is 51 days at
** 30 Hz. A trace claiming more (2^40 ticks) is refused when read rather
** than replayed or pictured tick by tick, and a golden file claiming more
** is not read into a per-tick table of that size. */
#define NAV_LIMIT_TICKS (1u << 27)

/* Bytes of a run trace, which the reader holds whole with its records:
** about a quarter of an hour of 1,000 bots at 30 Hz (60 bytes a bot a
** tick). */
#define NAV_LIMIT_TRACE_BYTES ((size_t)1 << 31)

/* Bytes of a player recording (script/player_record.h), read whole: a run
** line is at most about 120 bytes, so 256 MiB holds two million changes
** of the controls, a day of a mouse that never rests at 30 Hz. */
#define NAV_LIMIT_PLAYER_BYTES (256u * 1024u * 1024u)

/* }======= */

#endif
