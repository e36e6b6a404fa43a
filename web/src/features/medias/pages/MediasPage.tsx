import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Descriptions, Empty, Modal, Pagination, Select, Space, Spin, Tag, Typography } from 'antd';
import { AudioOutlined, DownloadOutlined, PlayCircleOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useLiveStatus } from '../../../shared/socket/live';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { trimText } from '../../../shared/utils/text';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { MONTH_DAYS } from '../../../shared/time/range';
import { ReportToolbar, useReportSearch } from '../../../shared/report/ReportShell';
import { formatTime } from '../../../shared/time/zone';
import { downloadUrl, formatSize } from '../../../shared/utils/files';
import { mediaApi, mediaKeys, sourceOf, withoutRemoved, MEDIA_EVENTS, MEDIA_PAGE_SIZE, type MediaItem, type MediaKind } from '../api';
import { DeleteMedia } from '../components/DeleteMedia';
import '../medias.css';

/** The caption's source: a camera (with its icon) or a terminal. */
function Who({ source }: { source: ReturnType<typeof sourceOf> }) {
  return (
    <span className="media-who" title={`${source.name} (${source.id})`}>
      {source.camera && <VideoCameraOutlined />} {trimText(source.name, 18)}
    </span>
  );
}

function Thumb({ item }: { item: MediaItem }) {
  if (item.kind === 'image') return <img src={item.url} alt={item.name ?? ''} loading="lazy" className="media-thumb-img" />;
  if (item.kind === 'video')
    return (
      <span className="media-thumb-video">
        <video src={`${item.url}#t=0.1`} preload="metadata" muted playsInline />
        <PlayCircleOutlined className="media-thumb-play" />
      </span>
    );
  return (
    <span className="media-thumb-audio">
      <AudioOutlined />
    </span>
  );
}

/** /medias and /medias-child: photos, videos and recordings terminals uploaded, live (media.added and
 * media.removed make the gallery stale); a dispatcher may delete one. */
export default function MediasPage() {
  const { t } = useTranslation('medias');
  const qc = useQueryClient();
  useLiveDirectory();
  const socket = useLiveStatus((s) => s.status);
  const terminals = useDirectory((s) => s.terminals);
  const [msIds, setMsIds] = useState<string[]>([]);
  const [kind, setKind] = useState<MediaKind | undefined>();
  const search = useReportSearch({ msIds: [] as string[], kind: undefined as MediaKind | undefined }, { maxDays: MONTH_DAYS, pageSize: MEDIA_PAGE_SIZE });
  const page = search.page.pageNo;
  const [previewId, setPreviewId] = useState<string | null>(null);
  // Ids deleted here while this page is open: hidden at once, also from an answer that was on its way.
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());

  const q = useQuery({
    queryKey: mediaKeys.list(search.query, page),
    queryFn: () => mediaApi.list({ ...search.query, pageNo: page, pageSize: MEDIA_PAGE_SIZE }),
  });
  useLiveQueries(MEDIA_EVENTS, mediaKeys.all);
  // An item deleted here: it goes at once, and the page is fetched again so it fills up from the next one.
  const gone = (id: string) => {
    setRemoved((r) => (r.has(id) ? r : new Set(r).add(id)));
    void qc.invalidateQueries({ queryKey: mediaKeys.list.all });
  };

  const onSearch = () => search.apply({ msIds, kind });

  const list = useMemo(() => withoutRemoved(q.data?.list ?? [], removed), [q.data, removed]);
  const total = q.data?.total ?? 0;
  // The preview closes when its item leaves the page: deleted here or by another dispatcher (media.removed).
  const preview = list.find((x) => String(x.id) === previewId) ?? null;
  if (previewId !== null && !preview) setPreviewId(null);
  const sourceOfItem = (it: MediaItem) => sourceOf(it, terminals[it.msId]?.name);

  return (
    <div className="page-pad medias" data-testid="medias-page" data-socket={socket} data-count={list.length}>
      <Card size="small" title={t('title')}>
        <ReportToolbar
          ns="medias"
          search={search}
          error={q.error}
          onSearch={onSearch}
          testIds={{ search: 'medias-search' }}
          filters={
            <>
              <TerminalPicker multiple maxTagCount="responsive" style={{ minWidth: 260 }} value={msIds} onChange={setMsIds} placeholder={t('terminals')} testId="medias-terminals" />
              <Select
                allowClear
                placeholder={t('kind')}
                value={kind}
                onChange={setKind}
                style={{ width: 140 }}
                options={(['image', 'video', 'audio'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                data-testid="medias-kind"
              />
            </>
          }
        />
        <Spin spinning={q.isFetching}>
          {list.length === 0 ? (
            <Empty description={t('empty')} />
          ) : (
            <div className="media-grid" data-testid="media-grid">
              {list.map((it) => (
                <div key={it.id} className="media-cell">
                  <button
                    type="button"
                    className="media-card"
                    onClick={() => setPreviewId(String(it.id))}
                    data-testid="media-item"
                    data-id={it.id}
                    data-kind={it.kind}
                    data-ms={it.msId}
                    data-camera={it.camera}
                    title={it.name}
                  >
                    <span className="media-thumb">
                      <Thumb item={it} />
                    </span>
                    <span className="media-caption">
                      <Who source={sourceOfItem(it)} />
                      <Typography.Text type="secondary" className="media-when">
                        {formatTime(it.time, 'MM-DD HH:mm')}
                      </Typography.Text>
                    </span>
                  </button>
                  <DeleteMedia item={it} onGone={gone} compact />
                </div>
              ))}
            </div>
          )}
        </Spin>
        <Pagination className="medias-pages" {...search.pagination(total)} showSizeChanger={false} hideOnSinglePage />
      </Card>
      {preview && (
        <Modal
          open
          title={
            <Space>
              <Tag>{t(`kinds.${preview.kind}`)}</Tag>
              {trimText(preview.name || preview.fileId, 40)}
            </Space>
          }
          onCancel={() => setPreviewId(null)}
          width={860}
          footer={[
            <DeleteMedia key="delete" item={preview} onGone={gone} />,
            <Button key="dl" icon={<DownloadOutlined />} href={downloadUrl(preview.url)} download={preview.name} data-testid="media-download">
              {t('download')}
            </Button>,
            <Button key="close" type="primary" onClick={() => setPreviewId(null)}>
              {t('close')}
            </Button>,
          ]}
          data-testid="media-preview"
          destroyOnHidden
        >
          <div className="media-preview-body" data-kind={preview.kind}>
            {preview.kind === 'image' && <img src={preview.url} alt={preview.name ?? ''} data-testid="media-preview-image" />}
            {preview.kind === 'video' && <video src={preview.url} controls autoPlay data-testid="media-preview-video" />}
            {preview.kind === 'audio' && <audio src={preview.url} controls autoPlay data-testid="media-preview-audio" />}
          </div>
          <Descriptions size="small" column={2} className="media-meta">
            <Descriptions.Item label={preview.camera ? t('camera') : t('terminal')}>
              {sourceOfItem(preview).name} ({sourceOfItem(preview).id})
            </Descriptions.Item>
            {preview.camera && (
              <Descriptions.Item label={t('takenBy')}>
                {terminals[preview.msId]?.name || preview.msName || preview.msId} ({preview.msId})
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('taken')}>{formatTime(preview.time, 'YYYY-MM-DD HH:mm:ss')}</Descriptions.Item>
            <Descriptions.Item label={t('size')}>{preview.size ? formatSize(preview.size) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('position')}>{preview.lat != null && preview.lng != null ? `${preview.lat.toFixed(5)}, ${preview.lng.toFixed(5)}` : '—'}</Descriptions.Item>
          </Descriptions>
        </Modal>
      )}
    </div>
  );
}
