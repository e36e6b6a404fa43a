// A custom theme saved or deleted by any dispatcher of the customer (theme.changed, docs/console-socket.md): the
// console open at that host fetches the host's branding again and applies it, without a reload (ADR 0021).
import { useEffect } from 'react';
import { live } from '../socket/live';
import { brandingApi } from './api';
import { applyBrandingRecord } from './loader';

export const THEME_CHANGED = 'theme.changed';

/** Subscribes for as long as the returned function is not called. */
export function startBrandingFeed(hostname = location.hostname): () => void {
  return live().on<{ hostname?: string }>(THEME_CHANGED, (e) => {
    if (e.data.hostname !== hostname) return;
    void brandingApi.theme(hostname).then((r) => applyBrandingRecord(hostname, r), () => {});
  });
}

/** Mounts the feed for as long as the component lives (the shell). */
export function useBrandingFeed(): void {
  useEffect(() => startBrandingFeed(), []);
}
