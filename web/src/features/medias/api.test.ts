// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { deleteError, MEDIA_EVENTS, mediaKeys, sourceOf, withoutRemoved, type MediaItem } from './api';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import en from './i18n/en-US.json';
import es from './i18n/es-ES.json';
import fr from './i18n/fr-FR.json';
import ru from './i18n/ru-RU.json';
import tr from './i18n/tr-TR.json';
import zh from './i18n/zh-CN.json';

const item = (id: string, p: Partial<MediaItem> = {}): MediaItem => ({ id, msId: '10000150', fileId: `f${id}`, kind: 'image', url: `/filews/files/f${id}`, time: Number(id) * 1000, ...p });

describe('media cloud live updates', () => {
  it('an item uploaded or deleted makes every gallery page stale, the resync root is the media cloud', () => {
    expect(staleKeys(MEDIA_EVENTS, 'media.added', { id: 5 })).toEqual([['medias', 'list']]);
    expect(staleKeys(MEDIA_EVENTS, 'media.removed', { id: 5 })).toEqual([['medias', 'list']]);
    expect(mediaKeys.list({ kind: 'image' }, 2)).toEqual(['medias', 'list', { kind: 'image' }, 2]);
    expect(mediaKeys.all).toEqual(['medias']);
  });

  it('names a camera snapshot by its camera and an upload by its terminal', () => {
    expect(sourceOf(item('1', { camera: 'cam2', cameraName: 'Gate', msName: 'Desk' }), 'Desk 1')).toEqual({ camera: true, name: 'Gate', id: 'cam2' });
    expect(sourceOf(item('1', { camera: 'cam2' }))).toEqual({ camera: true, name: 'cam2', id: 'cam2' });
    expect(sourceOf(item('1', { msName: 'Unit 1' }), 'Unit one')).toEqual({ camera: false, name: 'Unit one', id: '10000150' });
    expect(sourceOf(item('1', { msName: 'Unit 1' }))).toEqual({ camera: false, name: 'Unit 1', id: '10000150' });
  });
});

describe('media cloud deletes', () => {
  it('hides deleted items, also from an answer fetched before the delete', () => {
    expect(withoutRemoved([item('3'), item('2'), item('1')], new Set(['2'])).map((x) => x.id)).toEqual(['3', '1']);
    const list = [item('1')];
    expect(withoutRemoved(list, new Set())).toBe(list);
  });

  it('words the delete codes in every language, any other code with its number', () => {
    expect(deleteError(new ApiError('409'))).toEqual({ key: 'codes.409', code: '409' });
    expect(deleteError(new ApiError('79'))).toEqual({ key: 'codes.79', code: '79' });
    expect(deleteError(new ApiError('500'))).toEqual({ key: 'codes.other', code: '500' });
    expect(deleteError(new Error('x'))).toEqual({ key: 'codes.other', code: 'failed' });
    for (const lang of [en, es, fr, ru, tr, zh]) {
      for (const code of ['404', '409', '79', '107']) expect(lang.codes[code as keyof typeof lang.codes]).toBeTruthy();
      expect(lang.codes.other).toContain('{{code}}');
      expect(lang.confirmDelete).toContain('{{name}}');
    }
  });
});
