/** Keys of the `state` table that several parts read or write. */

/** When the last complete poll of the loan request list ended (ISO); health and status read it. */
export const LAST_POLL_KEY = 'last_poll_at';

/**
 * The dashboard's address as people open it (ops.public_url, else the operator listener's own),
 * written by the running daemon when its listener starts and emptied when it stops: the links to
 * proposals in notifications and in agents' answers are made from it.
 */
export const DASHBOARD_URL_KEY = 'dashboard_url';
