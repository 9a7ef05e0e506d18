/**
 * The Explore left menu's items in the viewer's own fixed order (docs/spec/api.md Viewer options). `ui.menu`
 * only hides items: the order is always this one, unknown names are ignored, `[]` means no menu at all.
 * Hiding never grants or removes rights (saving still needs Edit, chat still needs chatAccess).
 */
import { MENU_ITEMS, type MenuItem } from '@netloom/protocol';

export { MENU_ITEMS, type MenuItem };

export const MENU_TITLES: Record<MenuItem, string> = {
  layout: 'Layout', open: 'Open view', save: 'Save view', templates: 'Templates', labels: 'Labels', layers: 'Layers',
  tables: 'Tables', metrics: 'Metrics', groups: 'Groups', color: 'Color', size: 'Size', filter: 'Filter', shapes: 'Shapes', rollup: 'Roll-up',
  export: 'Export', settings: 'Settings',
};

/** The items to show for `ui.menu` (undefined: all), in the viewer's order. */
export function visibleMenuItems(menu: readonly string[] | undefined): MenuItem[] {
  if (menu === undefined) return [...MENU_ITEMS];
  const wanted = new Set(menu);
  return MENU_ITEMS.filter((m) => wanted.has(m));
}
