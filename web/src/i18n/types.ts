/** The shape every translation must have: same keys as en-US, strings where en-US has strings. */
export type Shape<T> = T extends string ? string : T extends readonly (infer U)[] ? readonly Shape<U>[] : { readonly [K in keyof T]: Shape<T[K]> };
