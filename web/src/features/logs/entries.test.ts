// @vitest-environment node
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from './i18n/en-US.json';
import ru from './i18n/ru-RU.json';
import es from './i18n/es-ES.json';
import fr from './i18n/fr-FR.json';
import tr from './i18n/tr-TR.json';
import zh from './i18n/zh-CN.json';
import serverKeys from './detailKeys.json';
import type { LogEntry } from './api';
import { actorOf, detailText, mergeEntries, type Names } from './entries';

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
  const names: Names = {
    group: (g) => ({ '4': 'Patrol', '6': 'Depot' })[g],
    terminal: (c) => (c === '10000101' ? 'Radio 1' : undefined),
    time: (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' '),
  };
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

  it('renders what the server writes in Russian: group and terminal names, times, call kinds, an attachment', async () => {
    const i = i18next.createInstance();
    await i.init({ lng: 'ru-RU', fallbackLng: 'en-US', resources: { 'en-US': { logs: en }, 'ru-RU': { logs: ru } }, interpolation: { escapeValue: false } });
    const row = (key: string, params: Record<string, string>) => detailText(e('5', 5, { remark: 'english remark', detail: { key, params } }), i.t, names);
    expect(row('toneToTerminalsAndGroup', { name: 'Gong', terminals: '10000101,10000102', group: '4', delivered: '2', recipients: '3' })).toBe(
      'сигнал «Gong» отправлен Radio 1 (10000101), 10000102 и группе Patrol, воспроизведён на 2 из 3',
    );
    expect(row('callStarted', { callKind: 'group', group: '6' })).toBe('групповой вызов в группе Depot начат');
    expect(row('trackQuery', { terminal: '10000101', start: '1764028800000', end: '1764032400000' })).toBe('трек Radio 1 (10000101) с 2025-11-25 00:00 по 2025-11-25 01:00');
    expect(row('messageToGroup', { group: '4', fileKind: 'image', file: 'map.png' })).toBe('сообщение группе Patrol с вложением (изображение) «map.png»');
    expect(row('sosSearch', { start: '', end: '', terminals: '', states: '0,1' })).toBe('поиск тревог: с — по —, терминалы: —, состояния: 0,1');
  });
});

describe('the live panel names the actor once', () => {
  const job = (account: string) => e('7', 7, { type: 140, name: 'App 143', account, detail: { key: 'jobAccepted', params: { job: 'Pump', terminal: '10000143' } } });
  it('leaves the actor out when the text names them (a terminal acting on itself), and writes it otherwise', () => {
    expect(actorOf(job('10000143'))).toBe('');
    expect(actorOf(job('10000001'))).toBe('App 143 (10000001)');
    expect(actorOf(e('8', 8, { name: 'Dispatcher', account: '10000001', detail: { key: 'online', params: { kind: 'console' } } }))).toBe('Dispatcher (10000001)');
    expect(actorOf(e('9', 9, { name: 'system', account: '' }))).toBe('system');
  });
});

// detailKeys.json is every detail the server writes, with its parameter names (kept to the code by the Go test
// internal/oplog TestEveryLogWriteCarriesAListedDetail).
describe('every detail the server writes has a template in every language', () => {
  const langs = { 'en-US': en, 'ru-RU': ru, 'es-ES': es, 'fr-FR': fr, 'tr-TR': tr, 'zh-CN': zh };
  const attachment = new Set(['file', 'fileKind']); // appended by the console, not part of a template
  it.each(Object.entries(langs))('%s', (_, lang) => {
    const templates: Record<string, string> = lang.detail;
    expect(Object.keys(serverKeys).length).toBeGreaterThan(40);
    for (const [key, params] of Object.entries(serverKeys as Record<string, string[]>)) {
      const tpl = templates[key];
      expect(tpl, key).toBeTruthy();
      const used = [...new Set([...tpl.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort();
      expect(used, key).toEqual(params.filter((p) => !attachment.has(p)));
    }
  });
});
