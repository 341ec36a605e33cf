/** Keys of the `state` table that several parts read or write. */

/** When the last complete poll of the loan request list ended (ISO); health and status read it. */
export const LAST_POLL_KEY = 'last_poll_at';
