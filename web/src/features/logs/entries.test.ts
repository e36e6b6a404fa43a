import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from './i18n/en-US.json';
import ru from './i18n/ru-RU.json';
import type { LogEntry } from './api';
import { detailText, mergeEntries, type Names } from './entries';

const e = (id: string, date: number, extra: Partial<LogEntry> = {}): LogEntry => ({ id, date, name: 'n', account: 'a', type: 5, remark: `r${id}`, ...extra });

describe('log rows: newest first by (time, id)', () => {
  it('orders rows of the same time by id, whatever order they arrive in', () => {
    const stored = [e('12', 1000), e('10', 1000), e('9', 900)];
    const shown = mergeEntries(mergeEntries([], stored), [e('11', 1000)]);
    expect(shown.map((x) => x.id)).toEqual(['12', '11', '10', '9']);
    // A replayed older event goes below, not on top; a live event of a later time goes on top.
    expect(mergeEntries(shown, [e('8', 800), e('13', 1001)]).map((x) => x.id)).toEqual(['13', '12', '11', '10', '9', '8']);
  });

  it('keeps a live entry that arrived while an older REST answer was on its way', () => {
    const live = mergeEntries([], [e('20', 2000)]);
    expect(mergeEntries(live, [e('19', 1900), e('18', 1800)]).map((x) => x.id)).toEqual(['20', '19', '18']);
  });
});

describe('log text in the viewer language', () => {
  const names: Names = { group: (g) => ({ '4': 'Patrol', '6': 'Depot' })[g], terminal: (c) => (c === '10000101' ? 'Radio 1' : undefined) };
  const switched = e('1', 1, {
    type: 8,
    remark: '10000101 switched to group 4 (from 6)',
    detail: { key: 'switched', params: { terminal: '10000101', group: '4', from: '6' } },
  });

  it('renders the detail with group and terminal names, in each language, and falls back to the remark', async () => {
    const i = i18next.createInstance();
    await i.init({ lng: 'ru-RU', fallbackLng: 'en-US', resources: { 'en-US': { logs: en }, 'ru-RU': { logs: ru } }, interpolation: { escapeValue: false } });
    expect(detailText(switched, i.t, names)).toBe('Radio 1 (10000101) перешёл в группу Patrol (из Depot)');
    await i.changeLanguage('en-US');
    expect(detailText(switched, i.t, names)).toBe('Radio 1 (10000101) switched to group Patrol (from Depot)');
    // An unknown group shows its id; a row stored as plain text shows that text.
    const unknown = { ...switched, detail: { key: 'switched', params: { terminal: '10000102', group: '9', from: '0' } } };
    expect(detailText(unknown, i.t, names)).toBe('10000102 switched to group #9 (from no group)');
    expect(detailText(e('2', 2, { remark: 'console online' }), i.t, names)).toBe('console online');
    expect(detailText(e('3', 3, { detail: { key: 'online', params: { kind: 'console' } } }), i.t, names)).toBe('Console online');
  });
});
