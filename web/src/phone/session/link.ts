// What a signed-in phone holds while the session lasts: the terminal socket, the voice engine on it and the
// location and battery reporters. Built when the login succeeds; end() stops all of it (sign-out, refusal).
import { VoiceEngine } from '../../shared/voice/engine';
import { LocationReporter } from '../location/reporter';
import type { TerminalSocket } from '../socket';
import { BatteryReporter } from './battery';

export class PhoneLink {
  readonly sock: TerminalSocket;
  readonly engine: VoiceEngine;
  readonly location: LocationReporter;
  readonly battery: BatteryReporter;

  constructor(sock: TerminalSocket, uid: string) {
    this.sock = sock;
    this.engine = new VoiceEngine(sock, { me: () => uid });
    this.location = new LocationReporter(sock);
    this.battery = new BatteryReporter(sock);
  }

  /** Voice at once (window.tenfourVoice: the browser suite reads the engine's stats). */
  startVoice(): void {
    window.tenfourVoice = this.engine;
    this.engine.start();
  }

  startReports(): void {
    this.location.start();
    void this.battery.start();
  }

  /** After a reconnect: the voice engine resyncs its calls and media. */
  resync(): void {
    this.engine.resync();
  }

  end(): void {
    this.engine.stop();
    if (window.tenfourVoice === this.engine) delete window.tenfourVoice;
    this.sock.stop();
    this.location.stop();
    this.battery.stop();
  }
}
