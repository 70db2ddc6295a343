/*
** test_grid_updates.c — the navcell grid against an independent model,
** through long random sequences of obstruction changes.
**
** Random worlds (walls, deep and shallow water, raised floors, low
** ceilings; several classes of radius 0 to 1.3 m, one that cannot swim) are
** loaded from generated Lua sources. Hundreds of fixed-seed obstruction adds,
** moves and removes follow (fences 0.02 to 0.1 m wide at any angle, boxes,
** tiny and big shapes, some partly off the map). After every change:
**   - grid_passable equals the model: terrain from the legend, round
**     clearance (a cell's centre at least the radius from every blocked
**     cell's square and from the map's edge), and the obstruction rule (all
**     four corners inside or within c, c = max(radius, (3 cells - smaller
**     side) / 2));
**   - the row and column bitsets agree with grid_passable;
**   - grid_reachable, grid_component and grid_region_of agree with a 4-connected
**     flood fill; grid_nearest_passable and grid_nearest_in_component with
**     brute force;
** and every few changes the grid equals a fresh grid_create with the same
** obstructions, cell for cell and component for component.
**
** Cells whose corner or clearance distance lies within EPS_M of the rule's
** threshold are not called (float rounding could go either way); the tests
** count them and they are rare.
*/
#include "grid_updates_support.h"

Test(grid_updates, random_changes_half_metre_cells)
{
    random_updates(48, 40, 0.5, 4, 1001, 300);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, random_changes_metre_cells)
{
    random_updates(80, 64, 1.0, 0, 2002, 300);
    NAV_TEST_LEAK_CHECK();
}

Test(grid_updates, random_changes_odd_size_and_chunk)
{
    random_updates(67, 53, 0.5, 12, 3003, 300);
    NAV_TEST_LEAK_CHECK();
}
