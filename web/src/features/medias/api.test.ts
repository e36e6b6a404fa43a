// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/client';
import { MEDIA_EVENTS, mediaKeys, sourceOf, withoutRemoved, type MediaItem } from './api';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { englishErrorText, expectCommonCodes } from '../../shared/test/errorText';
import common from '../../shared/i18n/en-US.json';
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

  it('says a file in use (409) in every language; the generic codes (404, 79, 107, …) come from the common namespace', async () => {
    const text = await englishErrorText('medias', en);
    expect(text(new ApiError('409', 'a tone or a floor plan uses this file', 'errors.file.inUse'))).toBe(en.errors['409']);
    expectCommonCodes(text);
    expect(text(new ApiError('79', 'the storage quota is full', 'errors.file.quota'))).toBe(common.codes['79']);
    expect(text(new ApiError('107', 'no permission'))).toBe(common.codes['107']);
    expect(text(new ApiError('500'))).toBe('Server error.');
    expect(text(new Error('x'))).toBe(common.codes.failed);
    for (const lang of [en, es, fr, ru, tr, zh]) {
      expect(lang.errors['409']).toBeTruthy();
      expect(lang.confirmDelete).toContain('{{name}}');
    }
  });
});
