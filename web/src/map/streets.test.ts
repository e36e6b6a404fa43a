// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fetchStreets, STREET_LAYER_IDS, streetLayers, streetsSource } from './streets';
import { MAP_THEMES } from './themes';

const answer = (body: unknown, status = 200) => (() => Promise.resolve(new Response(JSON.stringify(body), { status }))) as typeof fetch;

describe('the server street map', () => {
  it('is used only when the server says it has a vector archive', async () => {
    const info = { archive: true, url: '/tiles/streets.pmtiles', schema: 'protomaps', minzoom: 10, maxzoom: 15 };
    expect(await fetchStreets(answer(info))).toEqual(info);
    expect(await fetchStreets(answer({ archive: false }))).toEqual({ archive: false });
    // An older server without the route, a broken answer or no network: as without an archive.
    expect(await fetchStreets(answer('404 page not found', 404))).toEqual({ archive: false });
    expect(await fetchStreets(answer({ archive: true }))).toEqual({ archive: false });
    expect(await fetchStreets((() => Promise.reject(new TypeError('offline'))) as typeof fetch)).toEqual({ archive: false });
  });

  it('reads the archive through the pmtiles protocol on this server', () => {
    expect(streetsSource({ archive: true, url: '/tiles/streets.pmtiles' }, 'https://dispatch.example:8443')).toEqual({
      type: 'vector',
      url: 'pmtiles://https://dispatch.example:8443/tiles/streets.pmtiles',
    });
  });

  it('draws the Protomaps layers in every theme, hidden until asked', () => {
    for (const theme of MAP_THEMES) {
      const layers = streetLayers(theme, false);
      expect(layers.map((l) => l.id)).toEqual(STREET_LAYER_IDS);
      expect(new Set(layers.map((l) => ('source-layer' in l ? l['source-layer'] : undefined)))).toEqual(new Set(['earth', 'landuse', 'water', 'buildings', 'roads']));
      for (const l of layers) {
        expect(l.layout?.visibility).toBe('none');
        expect(Object.values(l.paint ?? {}).every((v) => v !== undefined)).toBe(true);
      }
    }
    expect(streetLayers('normal', true).every((l) => l.layout?.visibility === 'visible')).toBe(true);
    // The dark themes draw dark streets, not the normal theme's white ones.
    const road = (theme: (typeof MAP_THEMES)[number]) => (streetLayers(theme, true).find((l) => l.id === 'streets-roads')!.paint as Record<string, unknown>)['line-color'];
    expect(road('normal')).toBe('#ffffff');
    expect(road('dark')).not.toBe(road('normal'));
  });
});
