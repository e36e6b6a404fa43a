import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { voiceErrorText } from '../../shared/voice/errors';
import type { CallView, FloorView } from '../../shared/voice/protocol';
import { useDirectory } from '../../shared/directory/store';

export function accountName(msId: string | undefined): string {
  if (!msId) return '';
  return useDirectory.getState().terminals[msId]?.name || msId;
}

export function groupName(gid: string | undefined): string {
  if (!gid) return '';
  return useDirectory.getState().groups[gid]?.name || gid;
}

/** How a call is named in the panel: its group, the other party, or its kind. */
export function callTitle(t: TFunction, c: Partial<CallView> & Partial<FloorView> & { callId: string }, me?: string): string {
  switch (c.kind) {
    case 'group':
      return c.gName || groupName(c.gid) || t('kind.group');
    case 'single': {
      if (c.number) return c.number; // a phone number called through the trunk, not the trunk's account
      const other = c.parties?.find((p) => p.msId !== me) ?? (c.initiator?.msId !== me ? c.initiator : undefined);
      return other ? other.name || accountName(other.msId) : t('kind.single');
    }
    case 'temp':
      return c.gName || t('kind.temp');
    case 'all':
      return t('kind.all');
    case 'broadcast':
      return c.gName ? `${t('kind.broadcast')} · ${c.gName}` : t('kind.broadcast');
    default:
      return c.callId;
  }
}

/** Runs a voice request: its success (a key of the 'voice' namespace) or its failure shows as a message. */
export function useVoiceRun(): (fn: () => Promise<unknown>, ok?: string) => Promise<void> {
  const { t } = useTranslation('voice');
  const { message } = App.useApp();
  return async (fn, ok) => {
    try {
      await fn();
      if (ok) message.success(t(ok));
    } catch (e) {
      message.error(voiceErrorText(t, e));
    }
  };
}
