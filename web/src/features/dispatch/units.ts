// Speed units (spec §9): the server sends m/s; km/h factor 3.6, mph factor 2.237.
export type SpeedUnit = 'km/h' | 'mph' | 'm/s';
export function convertSpeed(ms: number, unit: string): number {
  if (unit === 'km/h') return ms * 3.6;
  if (unit === 'mph') return ms * 2.237;
  return ms;
}
