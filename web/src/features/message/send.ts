// Sending one message to one target, with the local "sending" row the chat shows until the server's copy comes.
import { errorCode, sendSms, type SendReply } from './api';
import { groupConv, terminalConv, type FileInfo } from './model';
import { addLocal, me, updateLocal, upsertMessages, useMessages } from './store';
import type { Target } from './validation';

export type SendOutcome = { ok: true; reply: SendReply } | { ok: false; code: string };

export function convOfTarget(t: Target) {
  return 'msId' in t ? terminalConv(t.msId) : groupConv(t.gid);
}

export async function sendMessage(target: Target, content: string, file?: FileInfo): Promise<SendOutcome> {
  const sentAt = Date.now();
  const localId = addLocal({ conv: convOfTarget(target), content, fileId: file?.id, file, sentAt });
  try {
    const reply = await sendSms(target, content, file?.id);
    const id = String(reply.id);
    // The sms.status event usually brings the stored copy; until then the reply is enough to show it.
    if (!useMessages.getState().messages[id]) {
      upsertMessages([
        {
          id,
          sender: me(),
          incoming: false,
          ...('msId' in target ? { msId: target.msId } : { gid: target.gid }),
          content,
          type: file?.kind ?? 'text',
          file,
          status: 1,
          time: sentAt,
          recipients: reply.recipients,
          delivered: reply.delivered,
          state: reply.state,
        },
      ]);
    }
    updateLocal(localId, { serverId: id, done: true });
    return { ok: true, reply };
  } catch (e) {
    const code = errorCode(e);
    updateLocal(localId, { code, done: true });
    return { ok: false, code };
  }
}
