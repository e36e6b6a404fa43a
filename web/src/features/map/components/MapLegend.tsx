// The monitoring map's legend (issue 33): what the marker colours and rings mean. Collapsed to one small button so it
// never covers the map unasked; whether it is open is kept with the other map preferences.
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { legendEntries, type Swatch } from '../legend';
import { useMapPrefs } from '../prefs';

const ENTRIES = legendEntries();

function SwatchIcon({ swatch }: { swatch: Swatch }) {
  switch (swatch.kind) {
    case 'dot':
      return <span className="map-legend-swatch" style={{ background: swatch.fill }} />;
    case 'ring':
      return <span className="map-legend-swatch map-legend-ring" style={{ background: swatch.fill, borderColor: swatch.ring }} />;
    case 'cluster':
      return <span className="map-legend-swatch map-legend-cluster" style={{ background: swatch.fill }} />;
  }
}

export function MapLegend() {
  const { t } = useTranslation('map');
  const open = useMapPrefs((s) => s.legend);
  const update = useMapPrefs((s) => s.update);
  const toggle = t(open ? 'legend.hide' : 'legend.show');
  return (
    <div className="map-legend" data-testid="map-legend" data-open={open ? '1' : '0'}>
      <Button size="small" type={open ? 'text' : 'default'} icon={<InfoCircleOutlined />} onClick={() => update({ legend: !open })} aria-expanded={open} aria-label={toggle} title={toggle} data-testid="map-legend-toggle">
        {t('legend.title')}
      </Button>
      {open && (
        <ul>
          {ENTRIES.map((e) => (
            <li key={e.key} data-key={e.key}>
              <SwatchIcon swatch={e.swatch} />
              {t(e.label)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
