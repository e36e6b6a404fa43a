import { useMemo, useState } from 'react';
import { language, t } from '../i18n';
import { Sheet } from '../ui/Sheet';
import { act, actionsFor, isOpen, markSeen, useJobs, type JobAction, type Ticket } from './jobs';
import EnvironmentOutlined from '@ant-design/icons-svg/es/asn/EnvironmentOutlined';
import ProfileOutlined from '@ant-design/icons-svg/es/asn/ProfileOutlined';
import { HeaderButton } from '../ui/HeaderButton';
import { Icon } from '../../shared/icons/Icon';

/** The header's job button with the count of tickets not seen yet. */
export function JobsButton({ onOpen }: { onOpen: () => void }) {
  const open = useJobs((s) => s.tickets.filter((x) => isOpen(x.state)).length);
  const unseen = useJobs((s) => s.unseen);
  return (
    <HeaderButton
      icon={ProfileOutlined}
      label={t('jobs.title')}
      onClick={() => {
        onOpen();
        markSeen();
      }}
      testid="phone-jobs-button"
      count={unseen}
      countTestid="phone-jobs-unseen"
      data={{ 'data-open': open }}
    />
  );
}

/** The tickets: open ones first, each with its task, place (a link that opens the phone's map) and next steps. */
export function JobsSheet({ onClose }: { onClose: () => void }) {
  const tickets = useJobs((s) => s.tickets);
  return (
    <Sheet title={t('jobs.title')} onClose={onClose} testid="phone-jobs">
      {tickets.length === 0 && <p className="p-muted">{t('jobs.empty')}</p>}
      {tickets.map((tk) => (
        <JobCard key={tk.jobId} tk={tk} />
      ))}
    </Sheet>
  );
}

function JobCard({ tk }: { tk: Ticket }) {
  const lang = language();
  const fmt = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }), [lang]);
  const [asking, setAsking] = useState<JobAction | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (a: JobAction, note = '') => {
    setBusy(true);
    const ok = await act(tk.jobId, a, note);
    setBusy(false);
    if (ok) {
      setAsking(null);
      setText('');
    }
  };
  const hasPos = tk.lat !== null && tk.lng !== null;
  return (
    <div className={`p-msg p-job p-job-${tk.state}`} data-testid="phone-job" data-id={tk.jobId} data-state={tk.state}>
      <div className="p-msg-head">
        <strong className={`p-job-state p-job-state-${tk.state}`} data-testid="phone-job-state">
          {t(`jobs.state.${tk.state}`)}
        </strong>
        <span className="p-muted p-small">
          {tk.creatorName || tk.creator} · {fmt.format(tk.sendTime)}
        </span>
      </div>
      <div className="p-msg-body">{tk.job}</div>
      {(tk.address || hasPos) && (
        <div className="p-small">
          <Icon def={EnvironmentOutlined} /> {tk.address}
          {hasPos && (
            <>
              {' '}
              <a href={`geo:${tk.lat},${tk.lng}?q=${tk.lat},${tk.lng}`} data-testid="phone-job-map">
                {t('jobs.openMap', { lat: tk.lat!.toFixed(5), lng: tk.lng!.toFixed(5) })}
              </a>
            </>
          )}
        </div>
      )}
      {tk.state === 2 && tk.reason && <div className="p-muted p-small">{t('jobs.reason', { reason: tk.reason })}</div>}
      {tk.state === 4 && tk.remark && <div className="p-muted p-small">{t('jobs.remark', { remark: tk.remark })}</div>}
      {asking ? (
        <form
          className="p-compose"
          onSubmit={(e) => {
            e.preventDefault();
            void run(asking, text.trim());
          }}
        >
          <input
            autoFocus
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={200}
            placeholder={t(asking === 'reject' ? 'jobs.reasonPrompt' : 'jobs.remarkPrompt')}
            data-testid="phone-job-text"
          />
          <button className="p-primary" type="submit" disabled={busy || (asking === 'reject' && !text.trim())} data-testid="phone-job-confirm">
            {t(`jobs.action.${asking}`)}
          </button>
          <button className="p-secondary" type="button" onClick={() => setAsking(null)}>
            {t('jobs.back')}
          </button>
        </form>
      ) : (
        <div className="p-job-actions">
          {actionsFor(tk.state).map((a) => (
            <button
              key={a}
              className={a === 'reject' ? 'p-secondary p-danger' : 'p-primary'}
              disabled={busy}
              data-testid={`phone-job-${a}`}
              onClick={() => (a === 'reject' || a === 'complete' ? setAsking(a) : void run(a))}
            >
              {t(`jobs.action.${a}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
