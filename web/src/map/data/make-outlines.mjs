// Generates the bundled offline basemap (web/public/map/countries.geojson) and the China outline used for the
// GCJ-02 decision (web/public/map/china.geojson) from Natural Earth via the world-atlas TopoJSON files
// (public domain). Run once by hand: node make-outlines.mjs <dir with countries-110m.json and countries-50m.json>
// Coordinates are rounded to 3 decimals (~100 m), which is all a fallback basemap needs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const out = new URL('../../../public/map/', import.meta.url).pathname;

function decode(topo, objectName) {
  const { scale, translate } = topo.transform;
  const arcs = topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [+(x * scale[0] + translate[0]).toFixed(3), +(y * scale[1] + translate[1]).toFixed(3)];
    });
  });
  const arc = (i) => (i >= 0 ? arcs[i] : arcs[~i].slice().reverse());
  const ring = (ids) => {
    const pts = [];
    ids.forEach((i, k) => pts.push(...(k ? arc(i).slice(1) : arc(i))));
    return pts.filter((p, k) => k === 0 || p[0] !== pts[k - 1][0] || p[1] !== pts[k - 1][1]);
  };
  const geom = (g) =>
    g.type === 'Polygon'
      ? { type: 'Polygon', coordinates: g.arcs.map(ring) }
      : g.type === 'MultiPolygon'
        ? { type: 'MultiPolygon', coordinates: g.arcs.map((p) => p.map(ring)) }
        : null;
  return topo.objects[objectName].geometries
    .map((g) => ({ type: 'Feature', properties: { name: g.properties?.name ?? '' }, geometry: geom(g) }))
    .filter((f) => f.geometry);
}

const c110 = JSON.parse(readFileSync(join(dir, 'countries-110m.json'), 'utf8'));
const c50 = JSON.parse(readFileSync(join(dir, 'countries-50m.json'), 'utf8'));
// The basemap: 110m countries (~190 KB). The China outline: the finer 50m polygon (~45 KB), since it decides
// whether a point is shifted by some 500 m.
const countries = decode(c110, 'countries');
writeFileSync(join(out, 'countries.geojson'), JSON.stringify({ type: 'FeatureCollection', features: countries }));
const china = decode(c50, 'countries').filter((f) => f.properties.name === 'China');
writeFileSync(join(out, 'china.geojson'), JSON.stringify({ type: 'FeatureCollection', features: china }));
console.log(`countries: ${countries.length}, china: ${china.length}`);
