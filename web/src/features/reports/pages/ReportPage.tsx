import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, Card, Col, Row, Tooltip, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { isBuilt } from '../../../shared/access/routes';
import { isFeatureEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { reportEntries } from '../catalogue';

const entries = reportEntries(isBuilt);

/** /report: the report screens, each opened here or in an extra window. */
export default function ReportPage() {
  const { t } = useTranslation('reports');
  const { t: tApp } = useTranslation('app');
  const multiScreen = isFeatureEnabled('multiScreen', useGateContext());
  return (
    <div className="page-pad" data-testid="report-index">
      <Typography.Title level={4}>{tApp('menu.report')}</Typography.Title>
      <Row gutter={[16, 16]}>
        {entries.map((e) => (
          <Col key={e.path} xs={24} sm={12} lg={8} xxl={6}>
            <Card
              size="small"
              title={<Link to={e.path} data-testid={`report-link-${e.screen}`}>{tApp(`menu.${e.screen}`)}</Link>}
              extra={
                multiScreen &&
                e.childPath && (
                  <Tooltip title={t('newWindow')}>
                    <Button
                      data-testid={`report-window-${e.screen}`}
                      type="text"
                      size="small"
                      icon={<ExportOutlined />}
                      aria-label={t('newWindow')}
                      onClick={() => window.open(e.childPath, `tenfour${e.childPath}`, 'popup,width=1100,height=720')}
                    />
                  </Tooltip>
                )
              }
            >
              <Typography.Text type="secondary">{t(`about.${e.screen}`, { defaultValue: '' })}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
