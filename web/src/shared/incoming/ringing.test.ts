// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { startRinging, type RingingDeps } from './ringing';

function fakes(visibility: DocumentVisibilityState) {
  const listeners = new Set<() => void>();
  const stopTone = vi.fn();
  const deps = {
    ring: vi.fn(() => stopTone),
    notify: vi.fn(),
    doc: {
      visibilityState: visibility,
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    },
  };
  const setVisibility = (v: DocumentVisibilityState) => {
    deps.doc.visibilityState = v;
    listeners.forEach((fn) => fn());
  };
  return { deps: deps as unknown as RingingDeps & typeof deps, stopTone, listeners, setVisibility };
}

const call = { tag: 'video-1', title: 'Unit 7 is video calling', body: 'Answer it', volume: 40 };

describe('startRinging', () => {
  it('rings at the volume and stops the tone when stopped', () => {
    const f = fakes('visible');
    const stop = startRinging(call, f.deps);
    expect(f.deps.ring).toHaveBeenCalledWith(40);
    stop();
    expect(f.stopTone).toHaveBeenCalledOnce();
    expect(f.listeners.size).toBe(0);
  });

  it('notifies the desktop at once when the tab is hidden, sticky, once', () => {
    const f = fakes('hidden');
    startRinging(call, f.deps);
    f.setVisibility('visible');
    f.setVisibility('hidden');
    expect(f.deps.notify).toHaveBeenCalledOnce();
    expect(f.deps.notify).toHaveBeenCalledWith('video-1', call.title, call.body, true);
  });

  it('notifies when the dispatcher looks away while it rings, not after it stopped', () => {
    const f = fakes('visible');
    const stop = startRinging(call, f.deps);
    expect(f.deps.notify).not.toHaveBeenCalled();
    f.setVisibility('hidden');
    expect(f.deps.notify).toHaveBeenCalledOnce();
    const g = fakes('visible');
    startRinging(call, g.deps)();
    g.setVisibility('hidden');
    expect(g.deps.notify).not.toHaveBeenCalled();
    stop();
  });

  it('makes no tone when call tones are off', () => {
    const f = fakes('visible');
    startRinging({ ...call, volume: undefined }, f.deps)();
    expect(f.deps.ring).not.toHaveBeenCalled();
  });
});
