import { useTranslation } from 'react-i18next';
import { Anchor, Typography } from 'antd';
import './manual.css';

interface Section {
  id: string;
  title: string;
  body: string[];
}

/** The user manual: what this version of the console does, in the UI language. */
export default function ManualPage() {
  const { t } = useTranslation('manual');
  const sections = t('sections', { returnObjects: true }) as Section[];
  return (
    <div className="manual page-pad" data-testid="manual-page">
      <nav className="manual-nav">
        <Anchor getContainer={() => document.querySelector('.shell-content') as HTMLElement ?? window} items={sections.map((s) => ({ key: s.id, href: `#${s.id}`, title: s.title }))} />
      </nav>
      <article className="manual-body">
        <Typography.Title level={2}>{t('title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        {sections.map((s) => (
          <section key={s.id} id={s.id}>
            <Typography.Title level={4}>{s.title}</Typography.Title>
            {s.body.map((p, i) => (
              <Typography.Paragraph key={i}>{p}</Typography.Paragraph>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}
