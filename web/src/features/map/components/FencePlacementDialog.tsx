// After a geofence is created or given terminals: where those terminals are now (issue 15 item 10). The alarm
// engine reacts to crossings, so a terminal already inside a keep-out fence (or outside a keep-in one) would stay
// silent until it crossed; the dialog lists them and offers to raise the fence alarm for them now.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Modal, Tag } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import dayjs from '../../../shared/utils/dayjs';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { useFail } from '../useFail';
import { geoApi, type FenceOccupant, type FencePlacement } from '../../../shared/geo/api';

/** Whether the dialog has anything to say about a placement. */
export function hasPlacement(p: FencePlacement | undefined): p is FencePlacement {
  return !!p && (p.occupants.length > 0 || p.breaching.length > 0);
}

interface Row extends FenceOccupant {
  inside: boolean;
  breach: boolean;
}

export function FencePlacementDialog({ placement, onClose }: { placement: FencePlacement; onClose: () => void }) {
  const { t } = useTranslation('map');
  const { message } = App.useApp();
  const fail = useFail();
  const dateTime = useDateTimeFormat();
  const [raising, setRaising] = useState(false);
  const inside = new Set(placement.occupants.map((o) => o.msId));
  const breach = new Set(placement.breaching.map((o) => o.msId));
  const rows: Row[] = [...placement.breaching, ...placement.occupants.filter((o) => !breach.has(o.msId))].map((o) => ({
    ...o,
    inside: inside.has(o.msId),
    breach: breach.has(o.msId),
  }));
  const count = placement.breaching.length;
  const lead = count
    ? t(placement.type === 'out' ? 'fence.placement.insideKeepOut' : 'fence.placement.outsideKeepIn', { count })
    : t('fence.placement.insideOnly', { count: placement.occupants.length });
  const raise = async () => {
    setRaising(true);
    try {
      const r = await geoApi.alarmBreaches(placement.fenceid, placement.breaching.map((o) => o.msId));
      message.success(t('fence.placement.raised', { count: r.list.length }));
      onClose();
    } catch (e) {
      fail(e);
    } finally {
      setRaising(false);
    }
  };
  return (
    <Modal
      open
      title={t('fence.placement.title', { name: placement.name })}
      onCancel={onClose}
      destroyOnHidden
      data-testid="fence-placement"
      footer={[
        <Button key="close" onClick={onClose} data-testid="fence-placement-close">
          {count ? t('fence.placement.notNow') : t('close')}
        </Button>,
        ...(count
          ? [
              <Button key="raise" type="primary" danger loading={raising} onClick={raise} data-testid="fence-placement-raise">
                {t('fence.placement.raise', { count })}
              </Button>,
            ]
          : []),
      ]}
    >
      <p data-testid="fence-placement-lead">{lead}</p>
      {count > 0 && <p>{t('fence.placement.why')}</p>}
      <DataTable<Row>
        rowKey="msId"
        pagination={false}
        scroll={{ y: 240 }}
        dataSource={rows}
        onRow={(r) => ({ 'data-ms-id': r.msId, 'data-breach': r.breach ? '1' : '0' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'name', title: t('alarm.terminal'), render: (_, r) => `${r.name || r.msId} (${r.msId})`, ellipsis: true },
          {
            key: 'where',
            title: t('fence.placement.where'),
            width: 110,
            render: (_, r) => <Tag color={r.breach ? 'red' : 'green'}>{t(r.inside ? 'fence.placement.inside' : 'fence.placement.outside')}</Tag>,
          },
          { key: 'time', title: t('fence.placement.lastFix'), width: 160, render: (_, r) => dayjs(r.time).format(dateTime) },
        ]}
      />
    </Modal>
  );
}
