// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { CAMERA_EVENTS, cameraKeys } from './api';

describe('camera events', () => {
  it('refresh the camera list under the key the page queries, and leave the stream states to their store', () => {
    for (const type of ['camera.changed', 'camera.record']) expect(staleKeys(CAMERA_EVENTS, type, {})).toEqual([cameraKeys.list.all]);
    expect(cameraKeys.list()).toEqual([...cameraKeys.list.all]);
    expect(staleKeys(CAMERA_EVENTS, 'camera.state', {})).toEqual([]);
  });
});
