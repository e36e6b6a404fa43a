// The report screens /report lists: every report route of the route table that is built, in the spec's order,
// with its extra-window copy when it has one.
import { ALL_ROUTES, type RouteDef, type Screen } from '../../shared/access/routes';

export interface ReportEntry {
  path: string;
  screen: Screen;
  childPath?: string;
}

/** The report screens (dsKey report, not /report itself, not child copies) for which isBuilt is true. */
export function reportEntries(isBuilt: (s: Screen) => boolean, routes: RouteDef[] = ALL_ROUTES): ReportEntry[] {
  const paths = new Set(routes.map((r) => r.path));
  return routes
    .filter((r) => r.dsKey === 'report' && !r.child && r.path !== '/report' && isBuilt(r.screen))
    .map((r) => ({ path: r.path, screen: r.screen, ...(paths.has(`${r.path}-child`) ? { childPath: `${r.path}-child` } : {}) }));
}
