// The one set of things a dispatcher does with a terminal (issue 32 item 1): call it, message it, video-call it,
// watch its camera. The terminal info panel, the tree's right-click menu and the map's terminal card all show this
// set, in this order, from here — so a dispatcher finds the same actions wherever the terminal is picked.
import { callCapable, cameraCapable } from '../video/store';

export const TERMINAL_ACTIONS = ['call', 'message', 'videoCall', 'monitor'] as const;
export type TerminalAction = (typeof TERMINAL_ACTIONS)[number];

/** What the signed-in account may do (spec §6: the message screen, video function, video monitor). */
export interface ActionRights {
  /** This console's own account: it neither calls nor messages itself. */
  me?: string;
  message: boolean;
  videoCall: boolean;
  monitor: boolean;
}

/** The actions offered for a terminal of this type, in the set's order. */
export function terminalActions(term: { cid: string; type: string }, rights: ActionRights): TerminalAction[] {
  const self = term.cid === rights.me;
  // A fixed camera has no loudspeaker nor inbox: it is only watched.
  const talks = !self && term.type !== 'camera';
  const offered: Record<TerminalAction, boolean> = {
    call: talks,
    message: talks && rights.message,
    videoCall: !self && callCapable(term.type) && rights.videoCall,
    monitor: cameraCapable(term.type) && rights.monitor,
  };
  return TERMINAL_ACTIONS.filter((a) => offered[a]);
}

/** A menu key of the set ("terminal.call"), so a context menu can mix it with keys of other features. */
export const MENU_PREFIX = 'terminal.';
export const menuKey = (a: TerminalAction) => `${MENU_PREFIX}${a}`;

/** The action of a menu key of the set; undefined for other keys. */
export function actionOfMenuKey(key: string): TerminalAction | undefined {
  const a = key.startsWith(MENU_PREFIX) ? key.slice(MENU_PREFIX.length) : '';
  return (TERMINAL_ACTIONS as readonly string[]).includes(a) ? (a as TerminalAction) : undefined;
}

/** The test id each action has on every screen (the video ones kept their ids of issue 16). */
export const ACTION_TEST_ID: Record<TerminalAction, string> = {
  call: 'terminal-call',
  message: 'terminal-message',
  videoCall: 'video-call',
  monitor: 'video-monitor',
};
