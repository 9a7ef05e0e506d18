/**
 * What the command engine and the chat controller share (DOM-free): the engine's side of the `chat.*`
 * commands (ChatPort, implemented by chat.ts) and the viewer's own chat gate. Both import this module;
 * neither imports the other.
 */
import type { ChatMessage, SessionInfo } from '@netloom/protocol';

/** The engine's side of the `chat.*` commands. */
export interface ChatPort {
  ask(args: { message: string; newChat?: boolean }, ctx: { id: string }): Promise<{ messageId: string }>;
  messages(): Promise<ChatMessage[]>;
  open(ctx: { id: string }): Promise<{ ok: true }>;
  close(ctx: { id: string }): Promise<{ ok: true }>;
  newChat(ctx: { id: string }): Promise<{ ok: true }>;
  cancel(ctx: { id: string }): Promise<{ cancelled: boolean }>;
}

/**
 * Whether this session has a chat at all (button, panel, chat commands past the viewer's own gate): not
 * when `ui.aiChat` is false or the user's chatAccess is off. The organization's switch and allowance
 * leave the chat in place and are reported by the service (the panel says why; commands get
 * NOT_PERMITTED with the service's reason).
 */
export function chatGateOf(s: SessionInfo): 'hidden' | 'chat-access-off' | null {
  if (s.ui?.aiChat === false) return 'hidden';
  if ((s.chatAccess ?? s.capabilities?.chat) === 'off') return 'chat-access-off';
  return null;
}

export const CHAT_GATE_TEXT = {
  'hidden': 'AI chat is hidden for this session (ui.aiChat is false)',
  'chat-access-off': 'this viewer has no AI chat (chatAccess is off)',
} as const;
