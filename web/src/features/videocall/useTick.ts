import { useEffect, useState } from 'react';

/** Re-renders every ms milliseconds (0: never). */
export function useTick(ms: number): void {
  const [, set] = useState(0);
  useEffect(() => {
    if (!ms) return;
    const id = setInterval(() => set((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [ms]);
}
