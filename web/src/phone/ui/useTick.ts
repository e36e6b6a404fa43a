import { useEffect, useState } from 'react';

/** The wall clock, refreshed every `ms` while active (countdowns, talk durations, notices that expire). */
export function useTick(active: boolean, ms = 500): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [active, ms]);
  return now;
}
