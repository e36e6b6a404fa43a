// Main tabs and the 'more' menu built from the route table, feature gating and the spec's menu order (1–9).
import { isDsKeyEnabled, type GateContext } from '../shared/access/features';
import { ALL_ROUTES, type RouteDef } from '../shared/access/routes';

export interface MenuModel {
  main: RouteDef[];
  more: RouteDef[];
}

export function buildMenu(gate: GateContext): MenuModel {
  const visible = ALL_ROUTES.filter((r) => !r.child && (!r.dsKey || isDsKeyEnabled(r.dsKey, gate)));
  const home = visible.filter((r) => r.path === '/home');
  const ordered = visible.filter((r) => r.menuOrder !== undefined && !r.hidden).sort((a, b) => a.menuOrder! - b.menuOrder!);
  const more = visible.filter((r) => r.more);
  return { main: [...home, ...ordered], more };
}
