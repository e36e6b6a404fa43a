// The message record of docs/messages.md §1, as the message screens and the message report read it.
export type FileKind = 'image' | 'file' | 'audio' | 'video';
export type MessageType = 'text' | FileKind;
export type DeliveryState = 'pending' | 'partial' | 'delivered';

export interface FileInfo {
  id: string;
  kind: FileKind;
  name: string;
  mime: string;
  size: number;
  url: string;
}

export interface Message {
  id: string;
  sender: string;
  from?: string;
  fromName?: string;
  /** true: a terminal's message to the dispatchers; false: a dispatcher's message to terminals. */
  incoming: boolean;
  msId?: string;
  msName?: string;
  gid?: string;
  gName?: string;
  content: string;
  type: MessageType;
  file?: FileInfo;
  /** Spec §4: 0 incoming and unread, 1 read (a dispatcher's own message is always 1). */
  status: 0 | 1;
  readBy?: string;
  readAt?: number;
  time: number;
  utctime?: string;
  recipients?: number;
  delivered?: number;
  state?: DeliveryState;
  /** Client only: when this window first saw the message (matches sends whose reply carried no id). */
  seenAt?: number;
}
