// Query-key factories (docs/adr/0033): a feature names its lists once, and pages, mutations and live updates take
// their keys from the factory — never an inline ['feature', 'list'] literal a rename would miss.
//   const patrolKeys = queryKeys('patrol', ['areas', 'orders']);
//   patrolKeys.orders(q)     → ['patrol', 'orders', q]   (one query)
//   patrolKeys.orders.all    → ['patrol', 'orders']      (every orders query: what an event invalidates)
//   patrolKeys.all           → ['patrol']                (the resync root)

export type ListKey<R extends string, N extends string> = ((...args: unknown[]) => readonly [R, N, ...unknown[]]) & {
  readonly all: readonly [R, N];
};

export type QueryKeys<R extends string, N extends string> = { readonly all: readonly [R] } & { readonly [K in N]: ListKey<R, K> };

export function queryKeys<R extends string, const N extends string>(root: R, names: readonly N[]): QueryKeys<R, N> {
  const keys: Record<string, unknown> = { all: [root] as const };
  for (const name of names) {
    keys[name] = Object.assign((...args: unknown[]) => [root, name, ...args] as const, { all: [root, name] as const });
  }
  return keys as QueryKeys<R, N>;
}
