// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { actionOfMenuKey, menuKey, terminalActions, TERMINAL_ACTIONS, type ActionRights } from './actions';

const all: ActionRights = { me: '10000001', message: true, videoCall: true, monitor: true };

describe('terminalActions', () => {
  it('offers an app every action, in the set order', () => {
    expect(terminalActions({ cid: '7', type: '10' }, all)).toEqual(['call', 'message', 'videoCall', 'monitor']);
  });

  it('offers a radio a call and a message only (no camera)', () => {
    expect(terminalActions({ cid: '7', type: '1' }, all)).toEqual(['call', 'message']);
  });

  it('offers a fixed camera monitoring only', () => {
    expect(terminalActions({ cid: '7', type: 'camera' }, all)).toEqual(['monitor']);
  });

  it('follows the account rights', () => {
    expect(terminalActions({ cid: '7', type: '10' }, { me: '1', message: false, videoCall: false, monitor: true })).toEqual(['call', 'monitor']);
    expect(terminalActions({ cid: '7', type: '10' }, { message: true, videoCall: true, monitor: false })).toEqual(['call', 'message', 'videoCall']);
  });

  it('never offers to call or message the console itself', () => {
    expect(terminalActions({ cid: '10000001', type: '20' }, all)).toEqual([]);
  });
});

describe('menu keys', () => {
  it('round-trips every action and ignores keys of other features', () => {
    for (const a of TERMINAL_ACTIONS) expect(actionOfMenuKey(menuKey(a))).toBe(a);
    expect(actionOfMenuKey('voice.monitor')).toBeUndefined();
    expect(actionOfMenuKey('terminal.rename')).toBeUndefined();
  });
});
