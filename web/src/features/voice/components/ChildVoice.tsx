import { useEffect } from 'react';
import { pttEngine, startConsoleVoice } from '../../../shared/voice/console';
import { PttKeys } from './PttKeys';

/**
 * A child window's voice: the PTT key drives the opener's engine (one PeerConnection and one audio output per
 * console). A child window opened on its own (no console opener) runs its own engine on its own socket.
 */
export default function ChildVoice() {
  useEffect(() => {
    let opener: Window | null = null;
    try {
      opener = window.opener as Window | null;
    } catch {
      opener = null;
    }
    if (opener?.tenfourVoice) return;
    return startConsoleVoice();
  }, []);
  return <PttKeys engine={pttEngine} />;
}
