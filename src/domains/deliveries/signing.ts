/** Who is calling, as the receivers of callbacks and ticket steps see it (signing itself: platform/crypto/webhook-signing.ts). */
export const CALLBACK_USER_AGENT = 'changeledger-callbacks/1';
export const TICKET_USER_AGENT = 'changeledger-tickets/1';
