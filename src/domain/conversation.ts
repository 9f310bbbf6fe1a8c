// One account's view of a direct-message thread: who else is in it, its newest status, and
// whether the account has read it.

export interface Conversation {
  id: string;
  accountId: string;
  /** The thread (Status.conversationId). */
  conversationId: string;
  /** The other participants (the owner excluded). */
  participantIds: string[];
  lastStatusId: string;
  unread: boolean;
  updatedAt: string;
}
