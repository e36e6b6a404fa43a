// Terminal and group choices for the pickers, from the directory store (kept live by the directory feed).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { trimText } from '../utils/text';
import { isDispatcher } from './model';
import { groupsQuery } from './api';
import { useDirectory } from './store';

/** Makes sure the directory is loaded for a picker (dialogs opened from any screen); the feed keeps it live. */
export function useDirectoryLoaded(): void {
  useQuery(groupsQuery());
}

export interface Choice {
  value: string;
  label: string;
  /** Searched by the pickers: id and full name. */
  search: string;
  online?: boolean;
}

export const NAME_MAX = 24;

/** Terminals (dispatchers left out: messages and tones go to terminals), sorted by name. */
export function useTerminalChoices(): Choice[] {
  const terminals = useDirectory((s) => s.terminals);
  const presence = useDirectory((s) => s.presence);
  return useMemo(
    () =>
      Object.values(terminals)
        .filter((t) => !isDispatcher(t))
        .map((t) => ({ value: t.cid, label: `${trimText(t.name || t.cid, NAME_MAX)} (${t.cid})`, search: `${t.cid} ${t.name}`.toLowerCase(), online: t.online === '1' }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [terminals, presence], // eslint-disable-line react-hooks/exhaustive-deps
  );
}

export function useGroupChoices(): Choice[] {
  const groups = useDirectory((s) => s.groups);
  return useMemo(
    () =>
      Object.values(groups)
        .map((g) => ({ value: g.gid, label: trimText(g.name || g.gid, NAME_MAX), search: `${g.gid} ${g.name}`.toLowerCase() }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [groups],
  );
}

/** antd Select's filter over Choice.search. */
export const filterChoice = (input: string, option?: { search?: string }) => !!option?.search?.includes(input.trim().toLowerCase());
