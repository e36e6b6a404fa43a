import { useBranding } from '../branding/store';
import { useSession } from '../session';
import type { GateContext } from './features';

/** The gating context of spec §6 for the current session and host. */
export function gateContext(): GateContext {
  const s = useSession.getState().session;
  const cfg = useBranding.getState().clientConfig;
  return { accountType: s?.accountType ?? '1', version: s?.version ?? '0', flags: { ...cfg, ...(s?.dsConfig ?? {}) } };
}

export function useGateContext(): GateContext {
  const s = useSession((st) => st.session);
  const cfg = useBranding((st) => st.clientConfig);
  return { accountType: s?.accountType ?? '1', version: s?.version ?? '0', flags: { ...cfg, ...(s?.dsConfig ?? {}) } };
}
