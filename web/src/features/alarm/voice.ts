// "Call the terminal" and "listen to it" from the alarm screens, through the console's voice engine
// (features/voice: an individual call = invite('single'), listening = monitorStart; a child window uses its
// opener's engine). provideVoiceActions can replace either action (tests, another voice implementation).
import { i18next } from '../../i18n';

export interface VoiceActions {
  /** Starts an individual call to the terminal. */
  call(msId: string): Promise<unknown> | unknown;
  /** Starts monitoring (listening to) the terminal. */
  listen(msId: string): Promise<unknown> | unknown;
}

let actions: Partial<VoiceActions> = {};

export function provideVoiceActions(a: Partial<VoiceActions>): void {
  actions = { ...actions, ...a };
}

/** A voice request failed; `text` is the voice feature's sentence for it. */
export class VoiceFailure extends Error {
  readonly text: string;
  constructor(text: string) {
    super(text);
    this.name = 'VoiceFailure';
    this.text = text;
  }
}

async function run(fn: (e: import('../../shared/voice/engine').VoiceEngine) => Promise<unknown>): Promise<void> {
  const [{ pttEngine }, { voiceErrorText }] = await Promise.all([import('../../shared/voice/console'), import('../../shared/voice/errors')]);
  try {
    await fn(pttEngine());
  } catch (e) {
    throw new VoiceFailure(voiceErrorText(i18next.getFixedT(null, 'voice'), e));
  }
}

export async function callTerminal(msId: string): Promise<void> {
  if (actions.call) await actions.call(msId);
  else await run((e) => e.invite('single', { msId }));
}

export async function listenTerminal(msId: string): Promise<void> {
  if (actions.listen) await actions.listen(msId);
  else await run((e) => e.monitorStart({ msId }));
}
