// The patrol service's calls (spec §7 "Patrol service"; docs/api.md "Patrol service"): shapes, calls, query keys.
import type { Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type * as wire from '../../shared/wire/patrol';
import type { Area, OrderLog, OrderPoint, Plan, Point, Route, RoutePoint } from '../../shared/wire/patrol';
import { patrolHttp, type PatrolUser } from './client';

export type { PatrolUser } from './client';

// The server's shapes are generated from internal/patrol/model.go (make wire); the console narrows an order's
// state and reasons to the values it draws.
export type { Area, Point, RoutePoint, Route, Plan, OrderPoint, OrderLog } from '../../shared/wire/patrol';

/** A plan's class as the console edits and sends it: the server numbers it and names its terminal. */
export type PlanClass = Omit<wire.Class, 'seq' | 'msName'> & Partial<Pick<wire.Class, 'seq' | 'msName'>>;

/** Order states (spec §4): to be patrolled (waiting), normal, abnormal. */
export const ORDER_STATES = [0, 1, 2] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const REASONS = ['missed', 'late', 'outOfOrder'] as const;
export type Reason = (typeof REASONS)[number];

export interface Order extends Omit<wire.Order, 'state' | 'reasons'> {
  state: OrderState;
  reasons: Reason[];
}

/** Punch states: 1 in time, 2 late, 3 repeat, 4 no open order. */
export const LOG_STATES = [1, 2, 3, 4] as const;

export interface PointInput {
  id?: number;
  name: string;
  nfcValue: string;
  areaId: number;
  lat: number;
  lng: number;
  radius: number;
  remark: string;
}

export interface PlanInput {
  name: string;
  startDate: string;
  endDate: string;
  areaId: number;
  routeId: number;
  classes: PlanClass[];
}

/** Patrol lists: page 1 size 100 (spec §9); orders: size 10000. */
export const LIST_SIZE = 100;
export const ORDER_SIZE = 10000;

export const patrolKeys = queryKeys('patrol', ['areas', 'users', 'points', 'routes', 'plans', 'orders', 'orderPoints', 'logs']);

const ids = (l: number[]) => l.join(',');

export const patrolApi = {
  findAccount: (username: string, password: string) => patrolHttp.get<PatrolUser>('sysUsers/poc/findAccountByPoC', { username, password }),
  users: (q: { name?: string; pocAccount?: string }) => patrolHttp.get<Page<PatrolUser>>('sysUsers/list', { ...q, pageNo: 1, pageSize: 1000 }),
  addUsers: (msIds: string[]) => patrolHttp.post<Page<PatrolUser>>('sysUsers/addUserByNms', { msIds }),

  areas: () => patrolHttp.get<Page<Area>>('tbPatrolArea/list'),
  saveArea: (a: { id?: number; name: string; remark: string }) =>
    a.id ? patrolHttp.put<Area>('tbPatrolArea/edit', a) : patrolHttp.post<Area>('tbPatrolArea/add', a),
  deleteAreas: (l: number[]) => patrolHttp.del<unknown>('tbPatrolArea/deleteBatch', { ids: ids(l) }),

  points: (q: { areaId?: number; name?: string; pageNo?: number; pageSize?: number }) =>
    patrolHttp.get<Page<Point>>('tbPatrolPoint/list', { pageNo: 1, pageSize: LIST_SIZE, ...q }),
  savePoint: (p: PointInput) => (p.id ? patrolHttp.put<Point>('tbPatrolPoint/edit', p) : patrolHttp.post<Point>('tbPatrolPoint/add', { ...p, type: '0' })),
  checkName: (name: string, areaId: number, id?: number) =>
    patrolHttp.get<{ available: boolean }>('tbPatrolPoint/checkPointName', { name, areaId, id }),
  checkNfc: (nfcValue: string, areaId: number, id?: number) =>
    patrolHttp.get<{ available: boolean }>('tbPatrolPoint/checkPointNfc', { nfcValue, areaId, id }),
  deletePoints: (l: number[]) => patrolHttp.del<unknown>('tbPatrolPoint/deleteBatch', { ids: ids(l) }),

  routes: (q: { areaId?: number; name?: string; pageNo?: number; pageSize?: number }) =>
    patrolHttp.get<Page<Route>>('tbPatrolRoute/list', { type: 0, pageNo: 1, pageSize: LIST_SIZE, order: 'desc', column: 'id', ...q }),
  routePoints: (id: number) => patrolHttp.get<RoutePoint[]>('tbPatrolRoute/queryPointById', { id }),
  saveRoute: (r: { id?: number; name: string; areaId: number; routePoints: number[]; remark?: string }) =>
    r.id ? patrolHttp.put<Route>('tbPatrolRoute/edit', { ...r, type: '0' }) : patrolHttp.post<Route>('tbPatrolRoute/add', { ...r, type: '0' }),
  deleteRoutes: (l: number[]) => patrolHttp.del<unknown>('tbPatrolRoute/deleteBatch', { ids: ids(l) }),

  plans: (q: { dtStart?: string; dtEnd?: string; areaId?: number }) =>
    patrolHttp.get<Page<Plan>>('tbPatrolPlan/list', { model: 2, pageNo: 1, pageSize: LIST_SIZE, ...q }),
  addPlan: (p: PlanInput) => patrolHttp.post<Plan>('tbPatrolPlan/add', { ...p, model: 2, type: '0' }),
  deletePlans: (l: number[]) => patrolHttp.del<unknown>('tbPatrolPlan/deleteBatch', { ids: ids(l) }),

  orders: (q: { startDate: string; endDate: string; msId?: string; state?: number; areaId?: number; planId?: number }) =>
    patrolHttp.get<Page<Order>>('tbPatrolOrder/list', { pageSize: ORDER_SIZE, model: 2, ...q }),
  orderPoints: (orderId: number) => patrolHttp.get<OrderPoint[]>('tbOrderPoint/queryPointsByOrderId', { orderId }),
  logs: (q: { startTime: number; endTime: number; msId?: string; state?: number; orderId?: number }) =>
    patrolHttp.get<Page<OrderLog>>('tbOrderLog/list', { pageNo: 1, pageSize: 1000, ...q }),
};
