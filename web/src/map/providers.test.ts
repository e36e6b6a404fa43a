// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { chooseProvider, mapsKeyFor, tileUrls } from './providers';

describe('map providers', () => {
  it('OSM is keyless with one template', () => {
    expect(tileUrls('osm', 'road', undefined, 'en-US')).toEqual(['https://tile.openstreetmap.org/{z}/{x}/{y}.png']);
    expect(chooseProvider('osm', '')).toEqual({ provider: 'osm', requested: 'osm', noKey: false });
  });
  it('Google and Amap need a valid key, else OSM is shown and "no valid map key" is raised', () => {
    expect(chooseProvider('google', '')).toMatchObject({ provider: 'osm', requested: 'google', noKey: true });
    expect(chooseProvider('amap', 'bad key!')).toMatchObject({ provider: 'osm', noKey: true });
    expect(chooseProvider('amap', 'abcdef0123456789')).toMatchObject({ provider: 'amap', key: 'abcdef0123456789', noKey: false });
  });
  it('reads a per-provider key from JSON or a prefixed list', () => {
    expect(mapsKeyFor('{"google":"AIzaSyA-0123456789","amap":"amapkey0001"}', 'amap')).toBe('amapkey0001');
    expect(mapsKeyFor('{"google":"AIzaSyA-0123456789"}', 'amap')).toBeUndefined();
    expect(mapsKeyFor('google:AIzaSyA-0123456789;amap:amapkey0001', 'google')).toBe('AIzaSyA-0123456789');
    expect(mapsKeyFor('{not json', 'google')).toBeUndefined();
  });
  it('expands subdomains and fills key and language', () => {
    const urls = tileUrls('amap', 'road', 'amapkey0001', 'zh-CN');
    expect(urls).toHaveLength(4);
    expect(urls[0]).toContain('webrd01.is.autonavi.com');
    expect(urls[0]).toContain('key=amapkey0001');
    expect(urls[0]).toContain('lang=zh_cn');
    expect(tileUrls('google', 'satellite', 'AIzaSyA-0123456789', 'fr-FR')[3]).toContain('mt3.google.com/vt/lyrs=s');
    expect(tileUrls('google', 'road', undefined, 'en-US')).toEqual([]);
  });
});
