// "Video call" and "monitor" for a terminal with a camera (spec §3 types: apps take calls and can be monitored,
// cameras can be monitored), where the account's access allows it (spec §6: video function, video monitor). The
// terminal info panel and the map's terminal card show them; the labels are theirs.
import { Button } from 'antd';
import { EyeOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { isFeatureEnabled } from '../access/features';
import { useGateContext } from '../access/gate';
import { callCapable, cameraCapable, startVideoCall, startVideoMonitor } from './store';

export function VideoActions({ cid, name, type, labels }: { cid: string; name: string; type: string; labels: { call: string; monitor: string } }) {
  const gate = useGateContext();
  const call = callCapable(type) && isFeatureEnabled('videoFunction', gate);
  const monitor = cameraCapable(type) && isFeatureEnabled('videoMonitor', gate);
  return (
    <>
      {call && (
        <Button size="small" icon={<VideoCameraOutlined />} onClick={() => void startVideoCall(cid, name)} data-testid="video-call">
          {labels.call}
        </Button>
      )}
      {monitor && (
        <Button size="small" icon={<EyeOutlined />} onClick={() => void startVideoMonitor(cid, name)} data-testid="video-monitor">
          {labels.monitor}
        </Button>
      )}
    </>
  );
}
