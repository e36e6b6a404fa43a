import { useEffect, useState } from 'react';

/**
 * The wall clock, re-rendering every `ms` while active (countdowns, talk durations, notices that expire). The time
 * is read at each render, so a countdown that appears after minutes of idling starts from now, not from when the
 * component mounted.
 */
export function useTick(active: boolean, ms = 500): number {
  const [, setBeat] = useState(0);
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setBeat((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [active, ms]);
  return Date.now();
}
