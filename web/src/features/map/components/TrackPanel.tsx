// Track query and playback (spec §2 track, §3 track point and summary, §4 play state, §5 "track needs a
// terminal" and time range, §9 units and precision rule).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, DatePicker, Descriptions, Form, InputNumber, List, Select, Slider, Space, Switch, Tag } from 'antd';
import { CaretRightOutlined, PauseOutlined, StopOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { useErrorText } from '../../../shared/errorText';
import { useSession } from '../../../shared/session';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { geoApi } from '../../../shared/geo/api';
import { framesFor, nextState, PLAY_SPEEDS } from '../../../shared/geo/playback';
import { checkRange, RANGE_CODES, TRACK_MAX_DAYS } from '../../../shared/time/range';
import { useTrack } from '../trackStore';
import { convertSpeed, SPEED_UNITS, speedUnitOf, summaryRows, type SpeedUnit } from '../../../shared/geo/units';
import { SpeedTimeline } from './SpeedTimeline';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';

export function TrackPanel({ initialTerminal, initialRange }: { initialTerminal?: string; initialRange?: [number, number] }) {
  const { t } = useTranslation('map');
  const errorText = useErrorText('map');
  const configUnit = speedUnitOf(useBranding((s) => s.clientConfig.speedUnit));
  const tz = useSession((s) => s.session?.timeZoneMs ?? 0);
  const dateTime = useDateTimeFormat();
  const fmt = useCallback((ms: number) => dayjs(ms).format(dateTime), [dateTime]);
  const [msId, setMsId] = useState<string | undefined>(initialTerminal);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => (initialRange ? [dayjs(initialRange[0]), dayjs(initialRange[1])] : [dayjs().startOf('day'), dayjs()]));
  const [unit, setUnit] = useState<SpeedUnit>(configUnit);
  const [stopMinutes, setStopMinutes] = useState(3);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const { track, timeline, frame, playState, speed, follow, load, set } = useTrack();

  useEffect(() => setMsId((cur) => initialTerminal ?? cur), [initialTerminal]);
  useEffect(() => () => load(undefined), [load]);

  const query = async () => {
    setError(undefined);
    if (!msId) return setError(t('track.needTerminal'));
    const problem = checkRange(range?.[0].valueOf(), range?.[1].valueOf(), TRACK_MAX_DAYS, tz);
    if (problem) return setError(t(`range.${problem}`, { days: TRACK_MAX_DAYS, code: RANGE_CODES[problem] }));
    setLoading(true);
    try {
      load(await geoApi.track({ msId, btime: range![0].valueOf(), etime: range![1].valueOf(), unit, stopMinutes }));
    } catch (e) {
      setError(errorText(e));
      load(undefined);
    } finally {
      setLoading(false);
    }
  };

  // Playback loop.
  useEffect(() => {
    if (playState !== 'moving' || !timeline) return;
    let raf = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const s = useTrack.getState();
      const next = s.frame + framesFor(now - last, s.speed);
      last = now;
      if (next >= timeline.frames - 1) {
        s.set({ frame: timeline.frames - 1, playState: nextState(s.playState, 'end') });
        return;
      }
      s.set({ frame: next });
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playState, timeline]);

  const current = timeline?.frameAt(frame);
  const rows = useMemo(() => (track ? summaryRows(track.summary, fmt) : []), [track, fmt]);

  const play = () => {
    if (!timeline) return;
    if (playState === 'moveend' && frame >= timeline.frames - 1) set({ frame: 0 });
    set({ playState: nextState(playState, 'play') });
  };

  return (
    <div className="map-panel-body" data-testid="track-panel" data-play-state={playState}>
      <Form layout="vertical" size="small">
        <Form.Item label={t('track.terminal')} required validateStatus={error === t('track.needTerminal') ? 'error' : undefined}>
          <TerminalPicker value={msId} onChange={(v: string | undefined) => setMsId(v)} placeholder={t('track.pickTerminal')} testId="track-terminal" />
        </Form.Item>
        <Form.Item label={t('track.range')} required>
          <DatePicker.RangePicker
            showTime
            value={range}
            onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            style={{ width: '100%' }}
            data-testid="track-range"
          />
        </Form.Item>
        <Space wrap>
          <Form.Item label={t('track.unit')}>
            <Select value={unit} onChange={setUnit} options={SPEED_UNITS.map((u) => ({ value: u, label: u }))} style={{ width: 100 }} data-testid="track-unit" />
          </Form.Item>
          <Form.Item label={t('track.stopMinutes')}>
            <InputNumber min={1} max={1440} value={stopMinutes} onChange={(v) => setStopMinutes(v ?? 3)} style={{ width: 90 }} />
          </Form.Item>
        </Space>
        <Button type="primary" block loading={loading} onClick={query} data-testid="track-query">
          {t('track.query')}
        </Button>
      </Form>
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 8 }} data-testid="track-error" />}
      {track && (
        <>
          {track.truncated && <Alert type="warning" showIcon title={t('track.truncated')} style={{ marginTop: 8 }} />}
          <Descriptions
            size="small"
            column={1}
            bordered
            style={{ marginTop: 12 }}
            data-testid="track-summary"
            items={rows.map((r) => ({ key: r.key, label: t(`summary.${r.key}`), children: <span data-key={r.key}>{r.value}</span> }))}
          />
          {timeline && timeline.frames > 0 && (
            <div className="map-player" data-testid="track-player">
              <Space wrap>
                {playState === 'moving' ? (
                  <Button icon={<PauseOutlined />} onClick={() => set({ playState: nextState(playState, 'pause') })} data-testid="track-pause">
                    {t('track.pause')}
                  </Button>
                ) : (
                  <Button type="primary" icon={<CaretRightOutlined />} onClick={play} data-testid="track-play">
                    {t('track.play')}
                  </Button>
                )}
                <Button icon={<StopOutlined />} onClick={() => set({ playState: nextState(playState, 'stop'), frame: 0 })} data-testid="track-stop" />
                <Select
                  value={speed}
                  onChange={(v) => set({ speed: v })}
                  options={PLAY_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
                  style={{ width: 80 }}
                  data-testid="track-speed"
                />
                <label>
                  <Switch size="small" checked={follow} onChange={(v) => set({ follow: v })} data-testid="track-follow" /> {t('track.follow')}
                </label>
              </Space>
              <Slider
                min={0}
                max={Math.max(0, timeline.frames - 1)}
                value={Math.floor(frame)}
                onChange={(v) => set({ frame: v as number })}
                tooltip={{ formatter: (v) => (v !== undefined ? fmt(timeline.frameAt(v)?.time ?? 0) : '') }}
                data-testid="track-slider"
              />
              <div className="map-player-now" data-testid="track-now" data-frame={Math.floor(frame)} data-frames={timeline.frames}>
                {current ? `${fmt(current.time)} · ${convertSpeed(current.speed, track.summary.speedUnit).toFixed(1)} ${track.summary.speedUnit}` : ''}
              </div>
              <SpeedTimeline points={track.points} unit={track.summary.speedUnit} time={current?.time} formatTime={fmt} onScrub={(time) => set({ frame: timeline.frameAtTime(time) })} />
            </div>
          )}
          <List
            size="small"
            header={<b>{t('track.stops', { count: track.stops.length })}</b>}
            dataSource={track.stops}
            locale={{ emptyText: t('track.noStops') }}
            data-testid="track-stops"
            renderItem={(s) => (
              <List.Item
                style={{ cursor: 'pointer' }}
                onClick={() => timeline && set({ frame: timeline.frameAtTime(s.start), playState: playState === 'moving' ? 'pause' : playState })}
              >
                <Space direction="vertical" size={0}>
                  <span>
                    {fmt(s.start)} → {dayjs(s.end).format('HH:mm:ss')}
                  </span>
                  <span style={{ opacity: 0.75 }}>
                    <Tag>{t('track.stopDuration', { minutes: Math.round(s.duration / 60) })}</Tag>
                    {s.lat.toFixed(5)}, {s.lng.toFixed(5)}
                  </span>
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
    </div>
  );
}
