// @vitest-environment node
import { describe, expect, it } from 'vitest';
import dayjs from '../../shared/utils/dayjs';
import { snapshotName } from './api';

describe('snapshotName', () => {
  const at = dayjs('2026-11-29T08:05:09');
  it('names the camera and the wall-clock second', () => {
    expect(snapshotName('North gate', at)).toBe('North gate-20261129-080509.jpg');
  });
  it('keeps no character a desktop refuses in a file name, and a nameless camera is "camera"', () => {
    expect(snapshotName('Dock 3/4: "east"', at)).toBe('Dock 3-4- -east-20261129-080509.jpg');
    expect(snapshotName(' / ', at)).toBe('camera-20261129-080509.jpg');
  });
});
